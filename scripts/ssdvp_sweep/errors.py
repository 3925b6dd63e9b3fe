"""The one error the sweep engine raises for bad input (an unknown key, a bad value, a
malformed grid or sweep file): its message names the input; the commands exit with status 2.
Failed runs are not errors: they are recorded in the store with their status."""


class SweepInputError(Exception):
    """Bad sweep input, found before anything is submitted."""

    exit_status = 2
