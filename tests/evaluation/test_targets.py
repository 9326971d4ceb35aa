"""The targets an evaluation generates through: an OpenAI-compatible endpoint, here a real HTTP server on loopback
speaking OpenAI's response shapes, and a local model directory, here the demo model."""

import logging

import pytest

from tests.support.helpers import free_port
from tests.support.openai_server import MODEL, OpenAiServer, Scripted
from training_platform.contract.evaluation import ApiTarget, GenerationSettings, ModelTarget
from training_platform.contract.surgery import ModelSource
from training_platform.evaluation.targets import (
    ApiGenerator,
    TargetError,
    TransformersGenerator,
    open_generator,
    probe,
)

KEY = "sk-test-7f3a9c1e5b2d4068"


@pytest.fixture
def serve():
    servers = []

    def start(**options) -> OpenAiServer:
        servers.append(OpenAiServer(**options))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def api(server: OpenAiServer | None = None, base_url: str | None = None, **options) -> ApiTarget:
    return ApiTarget(base_url=base_url or server.base_url, model=MODEL, **options)


@pytest.fixture
def generators():
    opened = []

    def open_(target: ApiTarget, api_key: str | None = KEY) -> ApiGenerator:
        opened.append(ApiGenerator(target, api_key, backoff_seconds=0.01))
        return opened[-1]

    yield open_
    for generator in opened:
        generator.close()


def test_chat_answers_come_in_prompt_and_choice_order_with_the_request_the_contract_names(serve, generators):
    server = serve(key=KEY)
    settings = GenerationSettings(n=3, max_new_tokens=7, temperature=0.5, top_p=0.9, seed=11, stop=["\n\n"])

    answers = generators(api(server, api_key_secret="k")).generate(
        ["first", [{"role": "user", "content": "two"}]], settings
    )

    assert answers == [[f"first|choice {i}|seed 11" for i in range(3)], [f"two|choice {i}|seed 11" for i in range(3)]]
    first = next(r for r in server.requests if r.body["messages"][0]["content"] == "first")
    assert first.path == "/v1/chat/completions" and first.authorization == f"Bearer {KEY}"
    assert first.body == {
        "model": MODEL,
        "max_tokens": 7,
        "temperature": 0.5,
        "top_p": 0.9,
        "n": 3,
        "seed": 11,
        "stop": ["\n\n"],
        "messages": [{"role": "user", "content": "first"}],
    }


def test_completions_take_text_with_chat_messages_joined_and_no_key_sends_no_header(serve, generators):
    server = serve()
    settings = GenerationSettings(chat_template=False)
    messages = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hi"}]

    answers = generators(api(server), api_key=None).generate(["plain", messages], settings)

    assert answers == [["plain|choice 0|seed 0"], ["Be brief.\nHi|choice 0|seed 0"]]
    assert {r.path for r in server.requests} == {"/v1/completions"}
    assert all(r.authorization is None and "stop" not in r.body for r in server.requests)


def test_a_server_returning_fewer_choices_is_asked_again_for_new_samples(serve, generators):
    server = serve(max_choices=2)

    answers = generators(api(server)).generate(["q"], GenerationSettings(n=5, temperature=1.0, seed=3))

    # Each further request asks only for the rest, with the seed moved past the answers already held.
    assert [(r.body["n"], r.body["seed"]) for r in server.requests] == [(5, 3), (3, 5), (1, 7)]
    assert answers == [
        ["q|choice 0|seed 3", "q|choice 1|seed 3", "q|choice 0|seed 5", "q|choice 1|seed 5", "q|choice 0|seed 7"]
    ]


def test_429_and_503_are_retried_waiting_as_long_as_retry_after_asks(serve, generators):
    server = serve(script=[Scripted(429, {"Retry-After": "1"}), Scripted(503)])

    answers = generators(api(server, max_retries=2)).generate(["q"], GenerationSettings())

    assert answers == [["q|choice 0|seed 0"]]
    assert len(server.requests) == 3
    assert server.requests[1].started - server.requests[0].started >= 0.95  # the server asked for 1 s
    assert server.requests[2].started - server.requests[1].started < 0.9  # a 503 without it: a short backoff


def test_retries_run_out_with_the_last_status_and_other_4xx_fail_at_once(serve, generators):
    server = serve(script=[Scripted(502), Scripted(502)])
    with pytest.raises(TargetError, match="HTTP 502: busy"):
        generators(api(server, max_retries=1)).generate(["q"], GenerationSettings())
    assert len(server.requests) == 2

    long_message = "maximum context length exceeded " + "x" * 1000
    server = serve(script=[Scripted(400, body={"error": {"message": long_message}})])
    with pytest.raises(TargetError, match="HTTP 400: maximum context length exceeded") as raised:
        generators(api(server, max_retries=4)).generate(["q"], GenerationSettings())
    assert len(server.requests) == 1
    assert len(str(raised.value)) < 600


def test_a_refused_key_is_named_and_the_key_appears_nowhere(serve, generators, caplog):
    caplog.set_level(logging.DEBUG)  # httpx's and httpcore's request logs too
    server = serve(key="the-right-key")
    generator = generators(api(server))

    with pytest.raises(TargetError, match="refused the API key") as from_generate:
        generator.generate(["q"], GenerationSettings())
    with pytest.raises(TargetError, match="refused the API key") as from_probe:
        probe(api(server), KEY)

    # The server echoes the key it was sent, as OpenAI's does: masked in the message it becomes.
    assert "Incorrect API key provided: Bearer ***" in str(from_generate.value)
    for text in (str(from_generate.value), str(from_probe.value), repr(generator), caplog.text):
        assert KEY not in text
    assert server.requests[0].authorization == f"Bearer {KEY}"  # it was sent, and only in the header


def test_an_unreachable_endpoint_is_named_after_its_retries(generators, caplog):
    target = api(base_url=f"http://127.0.0.1:{free_port()}/v1", max_retries=2)

    with pytest.raises(TargetError, match="is unreachable"):
        probe(target, KEY, timeout=2)
    with pytest.raises(TargetError, match="is unreachable"):
        generators(target).generate(["q"], GenerationSettings())

    assert caplog.text.count("retry") == 2
    assert KEY not in caplog.text


def test_probe_accepts_a_served_model_and_lists_those_served_otherwise(serve):
    server = serve(key=KEY)

    probe(api(server), KEY)
    with pytest.raises(TargetError, match="does not serve the model 'missing'; it serves: tiny-chat, other"):
        probe(ApiTarget(base_url=server.base_url, model="missing"), KEY)


def test_requests_in_flight_never_exceed_the_concurrency(serve, generators):
    prompts = [f"p{i}" for i in range(12)]
    server = serve(limit=3, hold=0.2)

    answers = generators(api(server, concurrency=3)).generate(prompts, GenerationSettings())

    assert [a[0].split("|")[0] for a in answers] == prompts
    assert server.max_in_flight == 3


def test_requests_start_no_faster_than_the_rate_limit(serve, generators):
    server = serve()

    generators(api(server, concurrency=8, requests_per_second=20)).generate(
        [f"p{i}" for i in range(11)], GenerationSettings()
    )

    starts = sorted(r.started for r in server.requests)
    assert starts[-1] - starts[0] >= 10 / 20 - 0.02  # 11 starts at least 1/20 s apart


def test_stream_yields_the_answer_in_pieces(serve, generators):
    server = serve()

    pieces = list(generators(api(server)).stream("hello there", GenerationSettings(seed=4)))

    assert len(pieces) > 1 and "".join(pieces) == "hello there|choice 0|seed 4"
    assert server.requests[0].body["stream"] is True and server.requests[0].body["n"] == 1


# ---------------------------------------------------------------------------------------------------------------
# A local model directory: the demo model


CHATS = [
    "What is 3 plus 4?",
    [{"role": "user", "content": "What is 12 times 7?"}],
    "What is 20 minus 1? Answer briefly, please.",
    [{"role": "system", "content": "You add."}, {"role": "user", "content": "What is 1 plus 1?"}],
    "What is 5 plus 5?",
]
# The untrained demo model repeats the prompt's last word, so plain texts of different lengths and endings give
# answers that differ from prompt to prompt (through its chat template every answer is newlines).
TEXTS = ["The answer is", "7 plus", "user system", "What is 12", "0 1 2 3"]


@pytest.fixture(scope="module")
def local(demo_assets):
    generator = TransformersGenerator(demo_assets["model"], batch_size=4)
    yield generator
    generator.close()


def unbatched_greedy(model_dir, prompts, max_new_tokens: int, chat_template: bool) -> list[str]:
    """Each prompt alone through a plain `model.generate`: no padding at all."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir).eval()
    answers = []
    for prompt in prompts:
        if chat_template:
            messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else prompt
            text = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        else:
            text = prompt
        ids = tokenizer(text, return_tensors="pt", add_special_tokens=not chat_template)
        with torch.inference_mode():
            output = model.generate(**ids, max_new_tokens=max_new_tokens, do_sample=False)
        answers.append(tokenizer.decode(output[0, ids["input_ids"].shape[1] :], skip_special_tokens=True))
    return answers


@pytest.mark.parametrize(("prompts", "chat_template"), [(TEXTS, False), (CHATS, True)])
def test_batched_greedy_answers_equal_each_prompt_generated_alone(local, demo_assets, prompts, chat_template):
    settings = GenerationSettings(max_new_tokens=12, chat_template=chat_template)

    answers = local.generate(prompts, settings)

    assert [a[0] for a in answers] == unbatched_greedy(demo_assets["model"], prompts, 12, chat_template)
    assert len({a[0] for a in answers}) > 1 or chat_template
    assert local.generate(prompts, settings) == answers


def test_sampling_is_reproducible_from_the_seed(local):
    settings = GenerationSettings(max_new_tokens=6, temperature=1.0, n=3, seed=7)
    prompts = CHATS[:3]

    answers = local.generate(prompts, settings)

    assert [len(a) for a in answers] == [3] * len(prompts)
    assert local.generate(prompts, settings) == answers
    assert local.generate(prompts, settings.model_copy(update={"seed": 8})) != answers
    assert any(len(set(a)) > 1 for a in answers)  # n samples, not one answer n times


def test_stop_strings_end_generation_and_cut_the_answer(local):
    settings = GenerationSettings(max_new_tokens=12, chat_template=False)
    assert local.generate(["user system"], settings) == [[" system" * 12]]

    # The stop string spans two tokens; the answer ends before it.
    assert local.generate(["user system"], settings.model_copy(update={"stop": ["m sys", "zz"]})) == [[" syste"]]


def test_stream_yields_the_greedy_answer_and_honours_stop(local):
    settings = GenerationSettings(max_new_tokens=12, chat_template=False)

    pieces = list(local.stream("user system", settings))
    assert len(pieces) > 1 and "".join(pieces) == " system" * 12
    assert "".join(local.stream("user system", settings.model_copy(update={"stop": ["m sys"]}))) == " syste"
    assert (
        "".join(local.stream(CHATS[1], GenerationSettings(max_new_tokens=12)))
        == local.generate(CHATS[1:2], GenerationSettings(max_new_tokens=12))[0][0]
    )


def test_a_missing_model_directory_is_named(tmp_path):
    with pytest.raises(TargetError, match="no such model directory"):
        open_generator(ModelTarget(model=ModelSource(path=str(tmp_path / "absent"))), None)
