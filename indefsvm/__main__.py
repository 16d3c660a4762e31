"""``python -m indefsvm`` runs the command line."""

from ._entry import main

raise SystemExit(main())
