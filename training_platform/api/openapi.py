"""`python -m training_platform.api.openapi`: the API's OpenAPI document on stdout, without starting a server.

The web UI's TypeScript types and the Python client (clients/python, `make client`) are generated from it, so they
cannot drift from the pydantic models.
"""

import json
import sys
import warnings

from training_platform.api.app import create_app


def render() -> str:
    """The document as `main` writes it: sorted, so that what is generated from it does not depend on the order
    in which routes and models were declared."""
    # Operation ids are the handlers' names (api/app.py), and the generated Python client's functions are named
    # after them: two handlers of one name would make two client functions of one name.
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="Duplicate Operation ID")
        document = create_app().openapi()
    return json.dumps(document, indent=1, sort_keys=True) + "\n"


def main() -> None:
    sys.stdout.write(render())


if __name__ == "__main__":
    main()
