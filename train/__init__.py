"""Training scripts for Industry agents, installed as ``industry_env.train`` (none yet: they come with the
training issue, once the Gymnasium and PettingZoo environments exist)."""
