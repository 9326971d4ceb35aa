"""Where the server may send requests a user names the address of: a webhook (public addresses only, unless an admin
allows a network: docs/security.md, "Alert targets"), an evaluation's endpoint (loopback and private networks by
default, where self-hosted model servers are; docs/evaluation.md).

A URL a user names makes the server send requests to it, so without this it could reach what only the server can:
the cloud's metadata service (169.254.169.254, link-local), a service on loopback, the private network. A webhook's
host is checked when the target is created (an address, or every address its name resolves to), and again at every
delivery, where the request then goes to the very address that was checked: a name that resolves to a public
address at creation and to loopback later (DNS rebinding) is refused then, never connected to. An evaluation's
endpoint is checked when the run is created and when a playground chat starts.
"""

import ipaddress
import socket
from collections.abc import Iterable
from dataclasses import dataclass

import httpx

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
DEFAULT_PORTS = {"http": 80, "https": 443}


class DestinationRefused(Exception):
    """The URL's host is, or resolves to, an address the requests may not reach."""


@dataclass(frozen=True)
class Pinned:
    """A request to the checked address: the URL with it in place of the name, and what keeps the name for the
    receiver (the Host header) and for TLS (the server name its certificate is checked against)."""

    url: httpx.URL
    headers: dict[str, str]
    extensions: dict[str, str]


def address_kind(address: Address) -> str | None:
    """What makes `address` one a webhook may not reach by default, or None for a public address."""
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_unspecified:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if address.is_private:
        return "private"
    if not address.is_global or address.is_multicast:
        return "non-public"
    return None


class Destinations:
    """Public addresses, and the `allowed_networks` an admin lists in the setting `setting`, for requests of `what`."""

    def __init__(self, allowed_networks: Iterable[str] = (), what: str = "webhooks", setting: str = ""):
        self.allowed: tuple[Network, ...] = tuple(ipaddress.ip_network(n, strict=False) for n in allowed_networks)
        self.what = what
        self.setting = setting

    def refused_kind(self, address: Address) -> str | None:
        """What keeps a request from reaching `address` (loopback, private, …), or None when it may."""
        kind = address_kind(address)
        if kind is None or any(address.version == n.version and address in n for n in self.allowed):
            return None
        return kind

    def url_problem(self, url: str) -> str | None:
        """Why a URL may not be used: its host is, or resolves now to, an address it may not reach. A
        name that does not resolve now is let through (it is checked again at every delivery)."""
        parsed = httpx.URL(url)
        try:
            self.check(_host(parsed), parsed.port or DEFAULT_PORTS[parsed.scheme])
        except DestinationRefused as refused:
            return str(refused)
        except OSError:
            return None
        return None

    def check(self, host: str, port: int) -> Address:
        """The address to connect to: `host` itself, or the first its name resolves to once every one of them
        passed (OSError when it does not resolve)."""
        literal = _address(host)
        if literal is not None:
            found = [literal]
        else:
            found = [_address(info[4][0]) for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
        for address in found:
            if kind := self.refused_kind(address):
                article = "an" if kind[0] in "aeiou" else "a"
                what = f"{address} is" if literal is not None else f"{host} resolves to {address},"
                raise DestinationRefused(
                    f"{what} {article} {kind} address: {self.what} go to public addresses and the networks an admin "
                    f"allows in {self.setting}"
                )
        return found[0]

    def pin(self, url: str) -> Pinned:
        """The request for `url` sent to the address checked now (DestinationRefused, or OSError when the name
        does not resolve)."""
        parsed = httpx.URL(url)
        host = _host(parsed)
        address = self.check(host, parsed.port or DEFAULT_PORTS[parsed.scheme])
        if _address(host) is not None:
            return Pinned(parsed, {}, {})
        extensions = {"sni_hostname": host} if parsed.scheme == "https" else {}
        return Pinned(parsed.copy_with(host=str(address)), {"Host": parsed.netloc.decode("ascii")}, extensions)


def _host(url: httpx.URL) -> str:
    """The host as DNS and TLS know it (an international name in its ASCII form)."""
    return url.raw_host.decode("ascii")


def _address(text: str) -> Address | None:
    try:
        # A link-local IPv6 address from getaddrinfo carries its interface (fe80::1%eth0): the address is before it.
        return ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
