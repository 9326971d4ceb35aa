"""`tplat`, the command line: `serve` and `demo` work on this machine; `jobs ...` talks to the API."""
