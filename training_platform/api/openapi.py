"""`python -m training_platform.api.openapi`: the API's OpenAPI document on stdout, without starting a server.

The web UI's TypeScript types are generated from it at build time, so they cannot drift from the pydantic models.
"""

import json
import sys

from training_platform.api.app import create_app


def main() -> None:
    json.dump(create_app().openapi(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
