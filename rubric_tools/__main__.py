import sys

from rubric_tools.cli import main

sys.exit(main())
