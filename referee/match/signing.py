"""Ed25519 signatures of records and manifests (detached ``<file>.sig`` files).

A signature file is one JSON object (:class:`Signature`) beside the file it signs:
``m.jsonl`` gets ``m.jsonl.sig``.  It holds the SHA-256 of the whole file, a short
digest of every line (so that verification can name the first line that changed),
the signing key's fingerprint, and an Ed25519 signature over all of that.  See
docs/records.md for what a verified signature proves.

Keys are PEM files: a PKCS8 private key to sign (``referee keygen`` or ``openssl
genpkey -algorithm ed25519``), its public key (or the private key itself) to verify.
The ``cryptography`` package (extra ``sign``) is imported only when a key is used.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal

import msgspec

from referee.errors import RefereeError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )

FORMAT: Final = "referee-signature/1"
SUFFIX: Final = ".sig"
LINE_DIGEST_HEX: Final = 16
"""Hex digits kept of each line's SHA-256: enough to name a changed line; the
signature's strength rests on the whole file's SHA-256, which is kept whole."""


class SignatureError(RefereeError, ValueError):
    """A key or signature that cannot be used, or a file that does not verify; the
    message is one line naming the file (and the line, for an edited line)."""


class Signature(msgspec.Struct, kw_only=True):
    """The content of a ``.sig`` file.

    ``key``: SHA-256 (hex) of the signer's raw 32-byte public key; ``size`` (bytes)
    and ``sha256`` (hex) of the signed file; ``lines``: the first
    :data:`LINE_DIGEST_HEX` hex digits of the SHA-256 of every line, newline
    included; ``signature``: Ed25519 over :func:`signed_bytes`, base64.
    """

    format: str
    algorithm: Literal["ed25519"]
    key: str
    size: int
    sha256: str
    lines: list[str]
    signature: str = ""


def signed_bytes(sig: Signature) -> bytes:
    """The exact bytes the Ed25519 signature covers: every field but ``signature``."""
    return FORMAT.encode() + b"\n" + msgspec.json.encode(msgspec.structs.replace(sig, signature=""))


def _crypto() -> None:
    try:
        import cryptography  # noqa: F401
    except ImportError:
        raise SignatureError(
            "signing needs the cryptography package: pip install 'referee[sign]'"
        ) from None


def _read(path: str | os.PathLike[str], what: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise SignatureError(f"{what} {path}: cannot read: {exc.strerror}") from None


def load_private_key(path: str | os.PathLike[str]) -> Ed25519PrivateKey:
    """The Ed25519 private key in the PEM (PKCS8, unencrypted) file ``path``.

    Raises :class:`SignatureError` (cannot read, not PEM, not Ed25519, encrypted).
    """
    _crypto()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    data = _read(path, "--sign-key")
    try:
        key = load_pem_private_key(data, password=None)
    except (ValueError, TypeError) as exc:
        raise SignatureError(
            f"--sign-key {path}: not an unencrypted PEM private key ({exc})"
        ) from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SignatureError(f"--sign-key {path}: not an Ed25519 key")
    return key


def load_public_key(path: str | os.PathLike[str]) -> Ed25519PublicKey:
    """The Ed25519 public key in the PEM file ``path`` (a public key, or a private key
    whose public half is taken).  Raises :class:`SignatureError`."""
    _crypto()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (
        Ed25519PrivateKey,
        Ed25519PublicKey,
    )
    from cryptography.hazmat.primitives.serialization import (
        load_pem_private_key,
        load_pem_public_key,
    )

    data = _read(path, "--verify-key")
    key: object
    try:
        key = load_pem_public_key(data)
    except (ValueError, TypeError):
        try:
            key = load_pem_private_key(data, password=None)
        except (ValueError, TypeError) as exc:
            raise SignatureError(f"--verify-key {path}: not a PEM public key ({exc})") from None
    if isinstance(key, Ed25519PrivateKey):
        key = key.public_key()
    if not isinstance(key, Ed25519PublicKey):
        raise SignatureError(f"--verify-key {path}: not an Ed25519 key")
    return key


def fingerprint(key: Ed25519PublicKey) -> str:
    """SHA-256 (hex) of the raw 32-byte public key."""
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    return hashlib.sha256(key.public_bytes(Encoding.Raw, PublicFormat.Raw)).hexdigest()


def line_digests(data: bytes) -> list[str]:
    """The short digest of every line of ``data`` (a last line without newline too)."""
    return [hashlib.sha256(line).hexdigest()[:LINE_DIGEST_HEX] for line in data.splitlines(True)]


def signature_path(path: str | os.PathLike[str]) -> Path:
    """Where the signature of ``path`` lives: ``<path>.sig``."""
    path = Path(path)
    return path.with_name(path.name + SUFFIX)


class Signer:
    """Signs files with one private key (loaded once, kept in this process only)."""

    def __init__(self, key_path: str | os.PathLike[str]) -> None:
        """Load the key; raises :class:`SignatureError`."""
        self._key = load_private_key(key_path)
        self.fingerprint = fingerprint(self._key.public_key())

    def sign_bytes(self, data: bytes) -> Signature:
        """The signature of a file whose content is ``data``."""
        sig = Signature(
            format=FORMAT,
            algorithm="ed25519",
            key=self.fingerprint,
            size=len(data),
            sha256=hashlib.sha256(data).hexdigest(),
            lines=line_digests(data),
        )
        sig.signature = base64.b64encode(self._key.sign(signed_bytes(sig))).decode()
        return sig

    def sign_file(self, path: str | os.PathLike[str]) -> Path:
        """Write ``<path>.sig`` (mode 0600, atomically) for the file as it is now;
        return its path.  Raises OSError."""
        sig = self.sign_bytes(Path(path).read_bytes())
        out = signature_path(path)
        tmp = out.with_name(out.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(msgspec.json.encode(sig) + b"\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, out)
        return out


def verify_file(
    path: str | os.PathLike[str],
    key: Ed25519PublicKey,
    sig_path: str | os.PathLike[str] | None = None,
) -> Signature:
    """Check that ``path`` is, byte for byte, the file ``key`` signed in ``sig_path``
    (default ``<path>.sig``); return the signature.

    Raises :class:`SignatureError`: no or unreadable signature file, another key, a
    signature file that was changed, and a file changed after signing, naming the
    first line that differs (or the line where lines were added or removed).
    """
    sig_path = Path(sig_path) if sig_path is not None else signature_path(path)
    if not sig_path.exists():
        raise SignatureError(f"{path}: not signed (no signature file {sig_path})")
    try:
        sig = msgspec.json.decode(_read(sig_path, "signature"), type=Signature)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise SignatureError(f"{sig_path}: not a signature file: {exc}") from None
    if sig.format != FORMAT:
        raise SignatureError(f"{sig_path}: unknown format {sig.format!r}")
    expected = fingerprint(key)
    if not hmac.compare_digest(sig.key, expected):
        raise SignatureError(
            f"{path}: signed by another key (fingerprint {sig.key[:16]}, not {expected[:16]})"
        )
    from cryptography.exceptions import InvalidSignature

    try:
        key.verify(base64.b64decode(sig.signature, validate=True), signed_bytes(sig))
    except (InvalidSignature, ValueError):
        raise SignatureError(
            f"{sig_path}: the signature does not verify (the signature file was changed)"
        ) from None
    data = _read(path, "record")
    found = line_digests(data)
    for number, (signed, now) in enumerate(zip(sig.lines, found, strict=False), start=1):
        if signed != now:
            raise SignatureError(f"{path}: line {number}: changed after it was signed")
    if len(found) != len(sig.lines):
        first = min(len(found), len(sig.lines)) + 1
        what = "added" if len(found) > len(sig.lines) else "removed"
        raise SignatureError(
            f"{path}: line {first}: lines {what} after signing "
            f"({len(sig.lines)} signed, {len(found)} now)"
        )
    if len(data) != sig.size or not hmac.compare_digest(
        hashlib.sha256(data).hexdigest(), sig.sha256
    ):
        raise SignatureError(f"{path}: changed after it was signed")
    return sig


def generate_key(path: str | os.PathLike[str]) -> tuple[Path, Path, str]:
    """Write a new Ed25519 private key to ``path`` (PEM PKCS8, mode 0600, never
    overwriting) and its public key to ``<path>.pub``; return both paths and the
    fingerprint.  Raises :class:`SignatureError` or OSError (``FileExistsError``)."""
    _crypto()
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
        PublicFormat,
    )

    key = Ed25519PrivateKey.generate()
    private = Path(path)
    public = private.with_name(private.name + ".pub")
    pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    fd = os.open(private, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    public.write_bytes(
        key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    )
    return private, public, fingerprint(key.public_key())
