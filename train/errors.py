"""The error of a training run that cannot start: raised by the config's checks and the run folder's alike."""


class ConfigError(ValueError):
    """A training configuration that cannot be used: names the key (and the file) at fault."""
