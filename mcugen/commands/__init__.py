"""The `mcugen` subcommands, one module per family; mcugen/cli.py parses the command line and calls them."""
