"""Server text born bilingual (common/text.py): every code has its English and Chinese over the same parameters, a
request's language is read from Accept-Language, and texts made of parts, literal words and texts inside texts
render in one language throughout."""

import string

import pytest

from training_platform.common.catalogue import CATALOGUE, PYDANTIC_PREFIX
from training_platform.common.text import LANGUAGES, Text, language_of, translated
from training_platform.runners.base import ExitInfo


def fields_of(template) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("code", sorted(CATALOGUE))
def test_each_code_speaks_every_language_over_the_same_parameters(code):
    entry = CATALOGUE[code]
    # pydantic's error types keep pydantic's English message: only their Chinese is the catalogue's.
    wanted = ("zh-CN",) if code.startswith(PYDANTIC_PREFIX) else LANGUAGES
    assert set(entry) == set(wanted), code
    templates = [entry[language] for language in wanted if isinstance(entry[language], str)]
    assert len({frozenset(fields_of(template)) for template in templates}) <= 1, code


@pytest.mark.parametrize(
    ("header", "language"),
    [
        (None, "en"),
        ("", "en"),
        ("zh-CN", "zh-CN"),
        ("zh-TW,zh;q=0.8", "zh-CN"),
        ("fr-FR,zh-CN;q=0.7,en;q=0.9", "en"),
        ("fr,zh;q=0.5", "zh-CN"),
        ("en;q=0,zh", "zh-CN"),
        ("de", "en"),
        ("zh;q=nonsense,en", "en"),
    ],
)
def test_the_language_is_the_first_one_spoken_here(header, language):
    assert language_of(header) == language


def test_parts_literals_and_texts_inside_texts_render_in_one_language():
    stopped = Text.of("job.stopped_by_user_exit", exit=ExitInfo(code=None, signal=15).text().as_dict())
    assert stopped.render() == "stopped by user (killed by signal SIGTERM)"
    assert stopped.render("zh-CN") == "由用户停止（被信号 SIGTERM 终止）"
    queued = Text.join(Text.of("job.started_by_user"), None, Text.of("job.queued", gpus=2, position=1))
    assert queued.render() == "started by user; queued: waiting for 2 GPUs, position 1"
    assert queued.render("zh-CN") == "由用户启动；排队中：等待 2 块 GPU，排第 1 位"
    assert Text.from_dict(queued.as_dict()) == queued  # as stored and read back
    exited = ExitInfo(code=3).text()  # a parameter may be named `code` too
    assert (exited.render(), exited.render("zh-CN")) == ("exited with code 3", "退出码 3")
    trainer = Text.literal("paused automatically: NaN in loss")
    assert trainer.render("zh-CN") == trainer.render() == "paused automatically: NaN in loss"
    resumed = Text.of("job.resumed_by_user", checkpoint="checkpoint-4", step=4, learning_rate="0.0005")
    assert resumed.render() == "resumed by user from checkpoint-4 (step 4) with learning_rate 0.0005"
    assert resumed.render("zh-CN") == "由用户从 checkpoint-4（第 4 步）恢复，learning_rate 改为 0.0005"


def test_an_error_without_a_chinese_text_keeps_its_english():
    english = "Input should be a valid dictionary or instance of Model"
    assert translated("validation.no_such_type", {}, "zh-CN", english) == english
    assert translated("validation.missing", {}, "en", "Field required") == "Field required"
    assert translated("validation.missing", {}, "zh-CN", "Field required") == "缺少此字段"
    with pytest.raises(KeyError):
        Text.of("no.such.code").render()
