import sys

from research_assistant.cli import main

sys.exit(main())
