"""The ASGI application of ``szwadron serve`` (Starlette): the page's static files and the JSON API.

Routes: ``GET /`` the page, ``GET /static/...`` its script and style, ``GET /api/state`` the
loaded table, ``POST /api/<answer>`` for ``check``, ``measure``, ``targets``, ``fire``, ``move``
(with ``push_up``: ``move --push-up``), ``reach``, ``melee``, ``melee-combined`` (``melee
--attacker A B --defender D``, 5.10), ``disengage`` (``move
--disengage``), ``morale`` (the bodies are :mod:`szwadron.web.session`'s requests, the answers
the ``--json`` documents of the commands of the same names), ``POST /api/toml`` the scenario
file as it stands (to download), ``POST /api/save`` and ``POST /api/open``; the actions that
change the scenario (:data:`ACTIONS`, :mod:`szwadron.web.play`): ``apply-move`` (a push-up too),
``apply-fire``, ``apply-declare``, ``apply-melee``, ``apply-melee-combined``, ``apply-disengage``, ``apply-morale``, ``next-phase``, ``undo``, ``place``,
``terrain-add``, ``terrain-edit``, ``terrain-delete``; ``GET /api/log`` the game log (JSON
lines), ``POST /api/save-log`` the log saved beside the scenario, ``GET /api/armylists`` the army
lists a unit may be placed from.

Guards (:class:`Guard`, in front of every route):

- the ``Host`` header must name the address the server listens on (or ``localhost``): a page on
  another site cannot reach the server by rebinding its name (DNS rebinding);
- a request carrying an ``Origin`` (or ``Sec-Fetch-Site: cross-site``) from anywhere but the
  server itself is refused (403): other sites' pages cannot drive it;
- ``POST`` bodies must be ``application/json`` and at most :data:`MAX_BODY_BYTES`;
- with a ``token`` (the server listens beyond the loopback), every request must carry it: in the
  URL (``?token=``), the ``X-Szwadron-Token`` header or the cookie the page gets on first load.

Bad input is one message: ``{"error": "..."}`` with 400 (bad data), 403, 404, 409 (saving over a
file without ``overwrite``), 413 (too large) or 422 (the rules refuse the request, with its
``rule``); an unexpected error is 500 with one line, and the server keeps running.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable, Container
from http.cookies import SimpleCookie
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from szwadron.errors import IllegalActionError, InvalidDataError
from szwadron.i18n import LANGUAGES, current_language, language
from szwadron.web.requests import (
    ApplyCombinedMeleeRequest,
    ApplyDeclareRequest,
    ApplyDisengageRequest,
    ApplyFireRequest,
    ApplyMeleeRequest,
    ApplyMoraleRequest,
    ApplyMoveRequest,
    CheckRequest,
    CombinedMeleeRequest,
    DisengageRequest,
    FireRequest,
    MeasureRequest,
    MeleeRequest,
    MoraleRequest,
    MoveRequest,
    NextPhaseRequest,
    OpenRequest,
    PlaceRequest,
    ReachRequest,
    SaveRequest,
    TargetsRequest,
    TerrainAddRequest,
    TerrainDeleteRequest,
    TerrainEditRequest,
    UndoRequest,
    parse_request,
)
from szwadron.web.session import SaveConflict, Session

#: Largest request body accepted: 2 MB (the positions of some 20,000 bases).
MAX_BODY_BYTES = 2_000_000

#: Header and cookie that carry the access token.
TOKEN_HEADER = "x-szwadron-token"
TOKEN_COOKIE = "szwadron_token"

log = logging.getLogger("szwadron.web")


def static_dir() -> Path:
    """The folder of the page's files (shipped in the package)."""
    return Path(str(resources.files("szwadron.web") / "static"))


class Guard:
    """ASGI middleware: Host, Origin, token and body-size checks (see the module docstring)."""

    def __init__(self, app: ASGIApp, *, hosts: Container[str] | None, token: str | None) -> None:
        self.app = app
        self.hosts = hosts
        self.token = token

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        if self.hosts is not None and host.lower() not in self.hosts:
            await _refuse(send, 403, f"Host {host!r} is not this server; open it by its address")
            return
        origin = headers.get("origin")
        if origin is not None and origin != "null" and urlsplit(origin).netloc.lower() != host.lower():
            await _refuse(send, 403, f"cross-origin request from {origin!r} refused")
            return
        if origin == "null" or headers.get("sec-fetch-site") == "cross-site":
            await _refuse(send, 403, "cross-site request refused")
            return
        if self.token is not None and not self._has_token(scope, headers):
            await _refuse(send, 403, "this server needs its token: open the URL it printed at start")
            return
        if scope["method"] == "POST":
            ctype = headers.get("content-type", "").split(";")[0].strip().lower()
            if ctype != "application/json":
                await _refuse(send, 415, "send the request body as application/json")
                return
            length = headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > MAX_BODY_BYTES):
                await _refuse(send, 413, f"request body larger than {MAX_BODY_BYTES} bytes")
                return
            receive = _limited(receive)
        await self.app(scope, receive, send)

    def _has_token(self, scope: Scope, headers: dict[str, str]) -> bool:
        assert self.token is not None
        given = headers.get(TOKEN_HEADER)
        if given is None:
            query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
            given = (query.get("token") or [None])[0]
        if given is None and "cookie" in headers:
            cookie: SimpleCookie = SimpleCookie()
            try:
                cookie.load(headers["cookie"])
            except Exception:  # a malformed cookie header: no token
                return False
            morsel = cookie.get(TOKEN_COOKIE)
            given = morsel.value if morsel is not None else None
        return given is not None and hmac.compare_digest(given.encode(), self.token.encode())


class _TooLarge(Exception):
    pass


def _limited(receive: Receive) -> Callable[[], Awaitable[Message]]:
    """``receive`` that stops a body (chunked or lying about its length) past the limit."""
    seen = 0

    async def inner() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > MAX_BODY_BYTES:
                raise _TooLarge
        return message

    return inner


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _error(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


Answer = Callable[[Session, Any], dict[str, Any]]

#: The answers: route name → (request model, function of the session).
ANSWERS: dict[str, tuple[type[Any], Answer]] = {
    "check": (CheckRequest, Session.check),
    "measure": (MeasureRequest, Session.measure),
    "targets": (TargetsRequest, Session.targets),
    "fire": (FireRequest, Session.fire),
    "move": (MoveRequest, Session.move),
    "reach": (ReachRequest, Session.reach),
    "melee": (MeleeRequest, Session.melee),
    "melee-combined": (CombinedMeleeRequest, Session.melee_combined),
    "disengage": (DisengageRequest, Session.disengage),
    "morale": (MoraleRequest, Session.morale),
}

#: What changes the session's scenario (:mod:`szwadron.web.play`): the actions of the game (each
#: through :mod:`szwadron.game.apply`, appended to the game log), undo, and the set-up edits.
#: Each answers ``{"state": ...}`` (the new table) with what was done.
ACTIONS: dict[str, tuple[type[Any], Answer]] = {
    "apply-move": (ApplyMoveRequest, Session.apply_move),
    "apply-fire": (ApplyFireRequest, Session.apply_fire),
    "apply-declare": (ApplyDeclareRequest, Session.apply_declare),
    "apply-melee": (ApplyMeleeRequest, Session.apply_melee),
    "apply-melee-combined": (ApplyCombinedMeleeRequest, Session.apply_melee_combined),
    "apply-disengage": (ApplyDisengageRequest, Session.apply_disengage),
    "apply-morale": (ApplyMoraleRequest, Session.apply_morale),
    "next-phase": (NextPhaseRequest, Session.next_phase),
    "undo": (UndoRequest, Session.undo),
    "place": (PlaceRequest, Session.place),
    "terrain-add": (TerrainAddRequest, Session.terrain_add),
    "terrain-edit": (TerrainEditRequest, Session.terrain_edit),
    "terrain-delete": (TerrainDeleteRequest, Session.terrain_delete),
}


class Server:
    """The routes over one :class:`Session` (replaced when the page opens another file)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    async def _body(self, request: Request) -> Any:
        raw = await request.body()  # _TooLarge past the limit
        try:
            return json.loads(raw, parse_constant=_no_constant)
        except (ValueError, RecursionError) as exc:
            raise InvalidDataError(f"malformed JSON: {exc}", source="request") from None

    async def page(self, request: Request) -> Response:
        # the page speaks the server's language (issue 19): <html lang="pl"> picks app.js's L_PL
        html = (static_dir() / "index.html").read_text(encoding="utf-8")
        html = html.replace('<html lang="en">', f'<html lang="{current_language()}">', 1)
        response: Response = HTMLResponse(html, headers=_NO_CACHE)
        token = request.query_params.get("token")
        if token is not None:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def state(self, request: Request) -> Response:
        return JSONResponse(self.session.state())

    async def answer(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in ANSWERS and name not in ACTIONS:
            return _error(
                404,
                f"no answer {name!r} (answers: {', '.join(ANSWERS)}, toml, save, open; "
                f"actions: {', '.join(ACTIONS)})",
            )
        model, function = ANSWERS[name] if name in ANSWERS else ACTIONS[name]
        session = self.session
        return await _guarded(lambda body: function(session, parse_request(model, body)), self, request)

    async def log(self, request: Request) -> Response:
        """The game log (JSON lines), to download beside the scenario."""
        name = self.session.path.stem + ".jsonl"
        return Response(
            self.session.log_text(),
            media_type="application/jsonl",
            headers={"content-disposition": f'attachment; filename="{name}"', **_NO_CACHE},
        )

    async def armies(self, request: Request) -> Response:
        """The army lists a unit may be placed from."""
        return JSONResponse(self.session.army_lists())

    async def toml(self, request: Request) -> Response:
        session = self.session

        def run(body: Any) -> Response:
            text = session.toml(parse_request(CheckRequest, body).positions)
            name = session.path.name
            return Response(
                text,
                media_type="application/toml",
                headers={"content-disposition": f'attachment; filename="{name}"'},
            )

        return await _guarded(run, self, request)

    async def save(self, request: Request) -> Response:
        session = self.session
        return await _guarded(lambda body: session.save(parse_request(SaveRequest, body)), self, request)

    async def save_log(self, request: Request) -> Response:
        session = self.session
        return await _guarded(lambda body: session.save_log(parse_request(SaveRequest, body)), self, request)

    async def open(self, request: Request) -> Response:
        def run(body: Any) -> dict[str, Any]:
            self.session = self.session.open(parse_request(OpenRequest, body))
            return self.session.state()

        return await _guarded(run, self, request)


_NO_CACHE = {"cache-control": "no-store"}


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def request_language(request: Request) -> str:
    """The language a request asks for: the page sends its own in ``accept-language`` (``pl`` or
    ``en``); a browser's list (``pl-PL,pl;q=0.9,en;q=0.8``) is read by its first entry; anything
    else is the server's language (``serve --lang``).

    >>> from starlette.requests import Request
    >>> def ask(value):
    ...     return request_language(Request({"type": "http", "headers": [(b"accept-language", value)]}))
    >>> ask(b"pl"), ask(b"pl-PL,pl;q=0.9"), ask(b"de")
    ('pl', 'pl', 'en')
    """
    first = request.headers.get("accept-language", "").split(",")[0].split(";")[0].strip().lower()
    code = first.split("-")[0]
    return code if code in LANGUAGES else current_language()


async def _guarded(run: Callable[[Any], Any], server: Server, request: Request) -> Response:
    """Run an answer; every deliberate error becomes one message with its status."""
    try:
        body = await server._body(request)
        # the page's language (issue 19): the answer and its messages in it; run() is synchronous,
        # so no other request runs inside this block
        with language(request_language(request)):
            result = run(body)
    except _TooLarge:
        return _error(413, f"request body larger than {MAX_BODY_BYTES} bytes")
    except InvalidDataError as exc:
        # a library parameter is named as the request's field (``dice: gives 2 dice; ...``)
        # the page's own request needs no "request:" in front (a field's name leads the message)
        if exc.source == "request":
            text = exc.detail
        elif exc.parameter and exc.source is None:
            text = f"{exc.parameter}: {exc.detail}"
        else:
            text = str(exc)
        return _error(400, text)
    except IllegalActionError as exc:
        return _error(422, exc.detail, rule=exc.rule)
    except SaveConflict as exc:
        return _error(409, str(exc))
    except Exception as exc:  # a bug: one line, the server keeps running
        log.exception("internal error")
        return _error(500, f"internal error: {type(exc).__name__}: {exc}"[:300])
    if isinstance(result, Response):
        return result
    return JSONResponse(result, headers=_NO_CACHE)


def create_app(
    scenario: str | Path, *, hosts: Container[str] | None = None, token: str | None = None
) -> ASGIApp:
    """The application for one scenario file. ``hosts``: the ``Host`` headers accepted
    (``host:port`` forms, lower case; default: any loopback name, or any at all with a token);
    ``token``: the access token every request must carry (``None``: no token, loopback only)."""
    server = Server(Session.load(scenario))
    app = Starlette(
        routes=[
            Route("/", server.page),
            Route("/api/state", server.state),
            Route("/api/log", server.log),
            Route("/api/armylists", server.armies),
            Route("/api/toml", server.toml, methods=["POST"]),
            Route("/api/save", server.save, methods=["POST"]),
            Route("/api/save-log", server.save_log, methods=["POST"]),
            Route("/api/open", server.open, methods=["POST"]),
            Route("/api/{name}", server.answer, methods=["POST"]),
            Mount("/static", app=StaticFiles(directory=static_dir()), name="static"),
        ]
    )
    allowed = hosts if hosts is not None or token is not None else _AnyLoopback()
    return Guard(app, hosts=allowed, token=token)


class _AnyLoopback(frozenset[str]):
    """Every ``Host`` naming the loopback, on any port (the tests' client says ``testserver``)."""

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str):
            return False
        name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
        return name in ("127.0.0.1", "localhost", "[::1]", "testserver")


def host_names(host: str, port: int) -> frozenset[str]:
    """The ``Host`` headers that name a server listening on ``host:port``.

    >>> sorted(host_names("127.0.0.1", 8000))
    ['127.0.0.1:8000', 'localhost:8000']
    """
    names = {f"{host}:{port}"}
    if host in ("127.0.0.1", "localhost", "::1", "0.0.0.0", "::"):
        names |= {f"127.0.0.1:{port}", f"localhost:{port}"}
    if ":" in host and not host.startswith("["):
        names = {n for n in names if n.count(":") == 1} | {f"[{host}]:{port}"}
        if host in ("::1", "::"):
            names |= {f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"}
    return frozenset(n.lower() for n in names)


__all__ = ["ACTIONS", "ANSWERS", "MAX_BODY_BYTES", "Guard", "create_app", "host_names", "static_dir"]
