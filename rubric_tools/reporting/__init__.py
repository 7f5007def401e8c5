"""Reporters: render result objects (lint reports, replays, checks). They never check."""
