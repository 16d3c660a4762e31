"""Too big is said before the work: the memory a command needs on n samples, estimated from
the n x n matrices it will hold at once, against the memory available; a refusal names the
figure and the command that works at that size."""

from __future__ import annotations

from ._errors import EXIT_DATA, CLIError
from ._options import option_words


def refuse_too_big(args, n: int, *, command: str, matrices: float, what: str) -> None:
    """CLIError (exit 1) when ``matrices`` float64 n x n matrices are more than the memory
    available now (Linux' MemAvailable; unknown: no refusal)."""
    from .. import _validation

    need = 8.0 * n * n * matrices
    avail = _validation.available_memory()
    if avail is None or need <= avail:
        return
    if args.distances:
        instead = ("fewer objects (a subsample with their distances), or a machine with "
                   "more memory")
    elif args.labels or (args.file or "").endswith(
            (".npy", ".npz")):
        instead = (f"the features instead of the kernel, with 'indefsvm fit FEATURES "
                   f"--nystroem {_landmarks(n)}' (Krein-space Nystroem features: memory "
                   "linear in n)")
    else:
        instead = (f"'indefsvm fit {args.file or '--dataset ' + str(args.dataset)} "
                   f"--nystroem {_landmarks(n)}{_kernel_options(args)}' (Krein-space "
                   "Nystroem features: memory linear in n; 'indefsvm check' says how many "
                   "landmarks see the negative part of the kernel)")
    raise CLIError(f"{command} on {n} samples needs about {need / 2**30:.1f} GiB ({what}) "
                   f"and {avail / 2**30:.1f} GiB are available; nothing was computed. At "
                   f"this size use {instead}.", EXIT_DATA)


def _landmarks(n: int) -> int:
    """A landmark count to start from: 1 000, or a tenth of the samples below 10 000."""
    return max(100, min(1000, n // 10))


def _kernel_options(args) -> str:
    """The kernel's options of this command, as the words of the command that works at the
    size (--kernel always, the others where given)."""
    given = {"--kernel", *args.explicit} if getattr(args, "kernel", None) \
        else set(args.explicit)
    words = option_words(args, "kernel", "gamma", "coef0", "degree", given_flags=given)
    return "".join(" " + w for w in words)
