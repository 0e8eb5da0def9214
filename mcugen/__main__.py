from mcugen.commands.cli import main

raise SystemExit(main())
