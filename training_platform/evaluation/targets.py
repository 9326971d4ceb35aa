"""What answers an evaluation's prompts: an OpenAI-compatible endpoint (`ApiGenerator`) or a local Hugging Face model
directory (`TransformersGenerator`), behind one `Generator` interface (docs/evaluation.md).

An endpoint is somebody else's server, so it is asked politely and believed: at most `concurrency` requests in
flight, at most `requests_per_second` starts in any second, and 429, 5xx and dropped connections retried with
exponential backoff and jitter, waiting at least what a Retry-After header asks. Any other refusal fails at once with
the server's own words. The price: a slow or rate-limited endpoint makes a slow run, never a failed one, until its
retries are spent. The API key goes into the Authorization header and nowhere else: it is masked out of every error
message and never logged, and a generator's repr names only the endpoint and the model.

A local model generates in batches with left padding, so a batch's greedy answers are those of each prompt alone.
Sampling is seeded per batch from the settings' seed and the batch's first prompt index, so the same prompts give
the same answers in every run (torch's global generator: one generation at a time per process). A stop string ends a
sequence once it appears in the answer, never in the prompt, and the answer is cut before it, as endpoints do. Chat
messages go through the tokenizer's chat template; where there is none (or the chat template is off) their contents
are joined with newlines, on both kinds of target.
"""

import json
import logging
import math
import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import FIRST_EXCEPTION, ThreadPoolExecutor, wait
from email.utils import parsedate_to_datetime
from pathlib import Path
from typing import Any, Protocol

import httpx

from training_platform.contract.evaluation import ApiTarget, GenerationSettings, ModelTarget, prompt_text

log = logging.getLogger(__name__)

Prompt = str | list[dict]  # text, or chat messages [{"role": ..., "content": ...}]
RETRIED_STATUSES = frozenset({429, 500, 502, 503, 504})
MAX_SERVER_MESSAGE = 500
MAX_LISTED_MODELS = 10
MAX_RETRY_AFTER_SECONDS = 300.0  # a server asking for longer is out of service: fail rather than hang
MAX_BACKOFF_SECONDS = 60.0
MASK = "***"


class TargetError(Exception):
    """A target that cannot answer, in words for the person who named it: unreachable, key refused, model not served,
    no such directory, or the server's own message; `field` is the target's field at fault."""

    def __init__(self, message: str, field: str = "base_url"):
        super().__init__(message)
        self.field = field


class Generator(Protocol):
    def generate(self, prompts: list[Prompt], settings: GenerationSettings, first_index: int = 0) -> list[list[str]]:
        """`settings.n` answers per prompt, in the prompts' order; `first_index` is prompts[0]'s index in the run
        (a local model seeds its sampling with it)."""
        ...

    def stream(self, prompt: Prompt, settings: GenerationSettings) -> Iterator[str]:
        """The text of one answer, piece by piece as it is generated."""
        ...

    def close(self) -> None: ...


def prompt_messages(prompt: Prompt) -> list[dict]:
    """A prompt as chat messages: a text is one user message."""
    return [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt


def cut_at_stop(text: str, stop: list[str]) -> str:
    """`text` up to the first occurrence of any stop string."""
    found = [index for index in (text.find(s) for s in stop) if index >= 0]
    return text[: min(found)] if found else text


def _stopped_stream(pieces: Iterator[str], stop: list[str]) -> Iterator[str]:
    """`pieces` cut at the first stop string, even one split across pieces: the last len(longest stop) - 1
    characters are held back until the next piece shows they do not begin a stop string."""
    if not stop:
        yield from pieces
        return
    held_back = max(len(s) for s in stop) - 1
    pending = ""
    for piece in pieces:
        pending += piece
        cut = cut_at_stop(pending, stop)
        if len(cut) < len(pending):
            if cut:
                yield cut
            return
        if len(pending) > held_back:
            yield pending[: len(pending) - held_back]
            pending = pending[len(pending) - held_back :]
    if pending:
        yield pending


# ---------------------------------------------------------------------------------------------------------------
# An OpenAI-compatible endpoint


class _Masked:
    """Text with the API key replaced, for every message that may quote the server or a request."""

    def __init__(self, api_key: str | None):
        self._key = api_key

    def __call__(self, text: str) -> str:
        return text.replace(self._key, MASK) if self._key else text


def _server_message(response: httpx.Response, mask: _Masked) -> str:
    """The server's explanation: OpenAI's {"error": {"message": ...}} when it sends one, else its body."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("error"), dict) and body["error"].get("message"):
        text = str(body["error"]["message"])
    elif isinstance(body, dict) and isinstance(body.get("error"), str):
        text = body["error"]
    else:
        text = response.text
    text = mask(text.strip()) or response.reason_phrase
    return text if len(text) <= MAX_SERVER_MESSAGE else text[:MAX_SERVER_MESSAGE] + "…"


def _status_error(response: httpx.Response, base_url: str, mask: _Masked) -> TargetError:
    message = _server_message(response, mask)
    if response.status_code in (401, 403):
        message = f"{base_url} refused the API key (HTTP {response.status_code}): {message}"
        return TargetError(message, field="api_key_secret")
    return TargetError(f"{base_url} answered HTTP {response.status_code}: {message}")


def _unreachable(base_url: str, error: httpx.TransportError, mask: _Masked) -> TargetError:
    reason = mask(str(error)) or type(error).__name__
    if isinstance(error, httpx.TimeoutException):
        reason = f"timed out ({type(error).__name__})"
    return TargetError(f"{base_url} is unreachable: {reason}")


def _retry_after(response: httpx.Response) -> float | None:
    """The wait a Retry-After header asks for, in seconds (a number or an HTTP date), or None."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            seconds = parsedate_to_datetime(value).timestamp() - time.time()
        except (TypeError, ValueError):
            return None
    return max(0.0, seconds) if math.isfinite(seconds) else None


def probe(target: ApiTarget, api_key: str | None, timeout: float = 10) -> None:
    """Check that the endpoint answers, takes the key and serves the model (GET {base_url}/models); raise a
    TargetError naming the first of these that fails."""
    mask = _Masked(api_key)
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    try:
        response = httpx.get(f"{target.base_url}/models", headers=headers, timeout=timeout)
    except httpx.TransportError as error:
        raise _unreachable(target.base_url, error, mask) from None
    if response.status_code != 200:
        raise _status_error(response, target.base_url, mask)
    try:
        served = [str(entry["id"]) for entry in response.json()["data"]]
    except (ValueError, KeyError, TypeError):
        raise TargetError(f"{target.base_url}/models did not answer an OpenAI model list") from None
    if target.model not in served:
        listed = ", ".join(served[:MAX_LISTED_MODELS]) or "none"
        more = f" and {len(served) - MAX_LISTED_MODELS} more" if len(served) > MAX_LISTED_MODELS else ""
        message = f"{target.base_url} does not serve the model {target.model!r}; it serves: {listed}{more}"
        raise TargetError(message, field="model")


class TokenBucket:
    """At most `rate` starts in any second: a bucket of one token refilled at `rate` per second, so starts are at
    least 1/rate apart (a burst would put more than `rate` starts into the second it begins)."""

    def __init__(self, rate: float):
        self.interval = 1.0 / rate
        self._next = time.monotonic()
        self._lock = threading.Lock()

    def take(self) -> None:
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.interval
        if start > now:
            time.sleep(start - now)


class ApiGenerator:
    """Answers from an OpenAI-compatible endpoint: /chat/completions with the chat template on, /completions off.

    Each prompt is one request (more when the server returns fewer than n choices), sent from a pool of
    `concurrency` threads over one connection pool; a semaphore holds every request, streams included, to the
    limit."""

    def __init__(self, target: ApiTarget, api_key: str | None, backoff_seconds: float = 0.5):
        self.target = target
        self.backoff_seconds = backoff_seconds
        self._mask = _Masked(api_key)
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._client = httpx.Client(
            headers=headers,
            timeout=target.timeout_seconds,
            limits=httpx.Limits(max_connections=target.concurrency, max_keepalive_connections=target.concurrency),
        )
        self._in_flight = threading.BoundedSemaphore(target.concurrency)
        self._bucket = TokenBucket(target.requests_per_second) if target.requests_per_second else None
        self._pool = ThreadPoolExecutor(max_workers=target.concurrency, thread_name_prefix="eval-api")

    def __repr__(self) -> str:
        return f"ApiGenerator(base_url={self.target.base_url!r}, model={self.target.model!r})"

    def generate(self, prompts: list[Prompt], settings: GenerationSettings, first_index: int = 0) -> list[list[str]]:
        futures = [self._pool.submit(self._answers, prompt, settings) for prompt in prompts]
        done, pending = wait(futures, return_when=FIRST_EXCEPTION)
        for future in done:
            if future.exception() is not None:
                for other in pending:
                    other.cancel()
                raise future.exception()
        return [future.result() for future in futures]

    def stream(self, prompt: Prompt, settings: GenerationSettings) -> Iterator[str]:
        path, body = self._request(prompt, settings, n=1, seed=settings.seed)
        body["stream"] = True
        chat = settings.chat_template
        with self._in_flight:
            response = self._send(path, body, stream=True)
            try:
                for line in response.iter_lines():
                    if not line.startswith("data:"):
                        continue  # SSE comments, event names and the blank lines between events
                    data = line[len("data:") :].strip()
                    if data == "[DONE]":
                        return
                    try:
                        event = json.loads(data)
                    except ValueError:
                        raise TargetError(f"{self._url(path)} streamed an event that is not JSON") from None
                    if event.get("error"):
                        raise TargetError(
                            f"{self.target.base_url} failed mid-answer: {self._mask(str(event['error']))}"
                        )
                    for choice in event.get("choices") or []:
                        piece = (choice.get("delta") or {}).get("content") if chat else choice.get("text")
                        if piece:
                            yield piece
            except httpx.TransportError as error:
                raise _unreachable(self.target.base_url, error, self._mask) from None
            finally:
                response.close()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._client.close()

    def _url(self, path: str) -> str:
        return self.target.base_url + path

    def _request(self, prompt: Prompt, settings: GenerationSettings, n: int, seed: int) -> tuple[str, dict]:
        body: dict[str, Any] = {
            "model": self.target.model,
            "max_tokens": settings.max_new_tokens,
            "temperature": settings.temperature,
            "top_p": settings.top_p,
            "n": n,
            "seed": seed,
        }
        if settings.stop:
            body["stop"] = settings.stop
        if settings.chat_template:
            return "/chat/completions", {**body, "messages": prompt_messages(prompt)}
        return "/completions", {**body, "prompt": prompt_text(prompt)}

    def _answers(self, prompt: Prompt, settings: GenerationSettings) -> list[str]:
        """settings.n answers to one prompt; a server that returns fewer choices is asked again for the rest, with
        the seed moved on so that the further answers are new samples, not the same ones again."""
        answers: list[str] = []
        while len(answers) < settings.n:
            path, body = self._request(prompt, settings, settings.n - len(answers), settings.seed + len(answers))
            with self._in_flight:
                response = self._send(path, body, stream=False)
            try:
                choices = sorted(response.json()["choices"], key=lambda choice: choice.get("index", 0))
                texts = [
                    (choice["message"].get("content") or "") if "message" in choice else (choice.get("text") or "")
                    for choice in choices
                ]
            except (ValueError, KeyError, TypeError, AttributeError):
                raise TargetError(f"{self._url(path)} did not answer an OpenAI completion") from None
            if not texts:
                raise TargetError(f"{self._url(path)} answered with no choices")
            answers.extend(texts[: settings.n - len(answers)])
        return answers

    def _send(self, path: str, body: dict, stream: bool) -> httpx.Response:
        """One request, retried on 429, 5xx and dropped connections; a 2xx response (unread when streaming)."""
        url = self._url(path)
        attempt = 0
        while True:
            if self._bucket is not None:
                self._bucket.take()
            try:
                response = self._client.send(self._client.build_request("POST", url, json=body), stream=stream)
            except httpx.TransportError as error:
                if attempt == self.target.max_retries:
                    raise _unreachable(self.target.base_url, error, self._mask) from None
                self._wait(attempt, None, type(error).__name__)
                attempt += 1
                continue
            if response.is_success:
                return response
            if stream:
                response.read()
                response.close()
            if response.status_code not in RETRIED_STATUSES or attempt == self.target.max_retries:
                raise _status_error(response, self.target.base_url, self._mask)
            self._wait(attempt, _retry_after(response), f"HTTP {response.status_code}")
            attempt += 1

    def _wait(self, attempt: int, retry_after: float | None, reason: str) -> None:
        """Exponential backoff with full jitter, or at least what the server asked for."""
        backoff = random.uniform(0, min(MAX_BACKOFF_SECONDS, self.backoff_seconds * 2**attempt))
        if retry_after is not None:
            if retry_after > MAX_RETRY_AFTER_SECONDS:
                raise TargetError(f"{self.target.base_url} asked to wait {retry_after:.0f} s ({reason}): too long")
            backoff = retry_after + backoff * 0.1
        log.warning(
            "%s: %s, retry %d of %d in %.2f s",
            self.target.base_url,
            reason,
            attempt + 1,
            self.target.max_retries,
            backoff,
        )
        time.sleep(backoff)


# ---------------------------------------------------------------------------------------------------------------
# A local Hugging Face model


class TransformersGenerator:
    """Answers from a model directory, loaded with transformers in this process (local files only)."""

    def __init__(self, model_dir: Path, batch_size: int, device: str = "cpu"):
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        if not (model_dir / "config.json").is_file():
            what = "no such model directory" if not model_dir.is_dir() else "no config.json in the model directory"
            raise TargetError(f"{what}: {model_dir}")
        self.model_dir = model_dir
        self.batch_size = batch_size
        self.device = device
        try:
            self.tokenizer = AutoTokenizer.from_pretrained(model_dir, local_files_only=True, padding_side="left")
            self.model = AutoModelForCausalLM.from_pretrained(
                model_dir, local_files_only=True, dtype=torch.float32 if device == "cpu" else "auto"
            )
        except (OSError, ValueError) as error:
            raise TargetError(f"{model_dir} is not a model transformers can load: {error}") from None
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        self.model.to(device).eval()

    def __repr__(self) -> str:
        return f"TransformersGenerator(model_dir={str(self.model_dir)!r}, device={self.device!r})"

    def generate(self, prompts: list[Prompt], settings: GenerationSettings, first_index: int = 0) -> list[list[str]]:
        import torch

        answers: list[list[str]] = []
        for start in range(0, len(prompts), self.batch_size):
            batch = prompts[start : start + self.batch_size]
            texts, add_special_tokens = self._texts(batch, settings)
            inputs = self.tokenizer(texts, return_tensors="pt", padding=True, add_special_tokens=add_special_tokens)
            inputs = inputs.to(self.device)
            prompt_length = inputs["input_ids"].shape[1]
            if settings.temperature > 0:
                torch.manual_seed(_batch_seed(settings.seed, first_index + start))
            with torch.inference_mode():
                output = self.model.generate(**inputs, **self._generation_arguments(settings, prompt_length))
            decoded = self.tokenizer.batch_decode(output[:, prompt_length:], skip_special_tokens=True)
            decoded = [cut_at_stop(text, settings.stop) for text in decoded]
            answers.extend(decoded[i : i + settings.n] for i in range(0, len(decoded), settings.n))
        return answers

    def stream(self, prompt: Prompt, settings: GenerationSettings) -> Iterator[str]:
        import torch
        from transformers import TextIteratorStreamer

        texts, add_special_tokens = self._texts([prompt], settings)
        inputs = self.tokenizer(texts, return_tensors="pt", add_special_tokens=add_special_tokens).to(self.device)
        streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=True)
        cancelled = threading.Event()  # the reader has gone: generation ends at the next token and frees the model
        failure: list[BaseException] = []
        one = settings.model_copy(update={"n": 1})
        arguments = {**self._generation_arguments(one, inputs["input_ids"].shape[1], cancelled), "streamer": streamer}

        def run() -> None:
            try:
                if settings.temperature > 0:
                    torch.manual_seed(_batch_seed(settings.seed, 0))
                with torch.inference_mode():
                    self.model.generate(**inputs, **arguments)
            except BaseException as error:  # handed to the reader, who would otherwise wait for text forever
                failure.append(error)
                streamer.on_finalized_text("", stream_end=True)

        thread = threading.Thread(target=run, name="eval-stream", daemon=True)
        thread.start()
        try:
            yield from _stopped_stream(iter(streamer), settings.stop)
        finally:
            cancelled.set()
            thread.join()
        if failure:
            raise TargetError(f"generation failed: {type(failure[0]).__name__}: {failure[0]}") from failure[0]

    def close(self) -> None:
        self.model = None
        if self.device.startswith("cuda"):
            import torch

            torch.cuda.empty_cache()

    def _texts(self, prompts: list[Prompt], settings: GenerationSettings) -> tuple[list[str], bool]:
        """The prompts as the model reads them, and whether the tokenizer should add its special tokens (not to a
        chat template's output, which has them already)."""
        if settings.chat_template and self.tokenizer.chat_template:
            texts = [
                self.tokenizer.apply_chat_template(prompt_messages(p), tokenize=False, add_generation_prompt=True)
                for p in prompts
            ]
            return texts, False
        return [prompt_text(p) for p in prompts], True

    def _generation_arguments(
        self, settings: GenerationSettings, prompt_length: int, cancelled: threading.Event | None = None
    ) -> dict[str, Any]:
        from transformers import StoppingCriteriaList

        arguments: dict[str, Any] = {
            "max_new_tokens": settings.max_new_tokens,
            "num_return_sequences": settings.n,
            "pad_token_id": self.tokenizer.pad_token_id,
        }
        if settings.temperature > 0:
            arguments |= {"do_sample": True, "temperature": settings.temperature, "top_p": settings.top_p}
        else:
            arguments["do_sample"] = False
        criteria = [StopStrings(self.tokenizer, settings.stop, prompt_length)] if settings.stop else []
        if cancelled is not None:
            criteria.append(Cancelled(cancelled))
        if criteria:
            arguments["stopping_criteria"] = StoppingCriteriaList(criteria)
        return arguments


class StopStrings:
    """Ends each sequence once its new text holds a stop string (transformers' own `stop_strings` also match text
    that begins in the prompt: a stop of two newlines after a chat template's closing newline ends every answer
    before it starts). Only the last tokens are decoded, enough for the longest stop string of 4-byte characters."""

    def __init__(self, tokenizer, stop: list[str], prompt_length: int):
        self.tokenizer, self.stop, self.prompt_length = tokenizer, stop, prompt_length
        self.window = 4 * max(len(s) for s in stop) + 1

    def __call__(self, input_ids, scores, **kwargs):
        import torch

        tails = self.tokenizer.batch_decode(input_ids[:, self.prompt_length :][:, -self.window :])
        done = [any(s in tail for s in self.stop) for tail in tails]
        return torch.tensor(done, dtype=torch.bool, device=input_ids.device)


class Cancelled:
    """Ends every sequence once `event` is set."""

    def __init__(self, event: threading.Event):
        self.event = event

    def __call__(self, input_ids, scores, **kwargs):
        import torch

        return torch.full((input_ids.shape[0],), self.event.is_set(), dtype=torch.bool, device=input_ids.device)


def _batch_seed(seed: int, first_index: int) -> int:
    """Torch's seed for the batch that starts at prompt `first_index`: distinct for each (seed, index) pair."""
    return (seed * 1_000_003 + first_index) % 2**63


def open_generator(target: ApiTarget | ModelTarget, api_key: str | None, device: str = "cpu") -> Generator:
    """The generator for a target; an endpoint is not contacted until its first request (see `probe`)."""
    if isinstance(target, ApiTarget):
        return ApiGenerator(target, api_key)
    return TransformersGenerator(Path(target.model.path), target.batch_size, device)
