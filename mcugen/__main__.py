from mcugen.cli import main

raise SystemExit(main())
