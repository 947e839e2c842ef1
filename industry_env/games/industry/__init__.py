"""Industry (Michael Schacht): its rules, board, engines, pictures and tools."""
