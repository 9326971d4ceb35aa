"""Jobs in the browser: the form, live charts over the WebSocket, pause and resume, zoom, playback, added charts,
and a job cloned through its edited job file (docs/jobs.md "Job files"), each problem of a refused file beside its
line in the interface's language."""

import json
import math
import re

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.support.helpers import ServerProcess, wait_until
from tests.ui.conftest import DEMO_MODEL, PASSWORD, USER, create_user, log_in, screenshot
from tests.ui.elements import choose, form_item, points


def test_the_form_shows_each_api_error_next_to_its_field_and_creates_nothing(page: Page, ui_server, console):
    console.expect("status of 422")
    page.goto(f"{ui_server.url}/jobs/new")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    # Where jobs train on the CPU the form says why it gives no expected duration; with GPUs it offers one.
    on_cpu = not ui_server.api.get("/system").json()["gpus"]
    duration = page.get_by_test_id("duration-cpu-only" if on_cpu else "duration-hint")
    expect(duration).to_contain_text("throughput figures for GPUs only" if on_cpu else "Expected duration")
    name_error = form_item(page, "Job name").locator(".el-form-item__error")
    page.get_by_test_id("create-job").click()
    expect(name_error).to_contain_text("at least 1 character")

    page.locator("[data-field='name']").fill("has spaces")
    page.get_by_test_id("create-job").click()
    expect(name_error).to_contain_text("use letters, digits, '.', '_' and '-' only, starting with a letter or digit")

    # Every parameter problem in one round trip, each under the input it concerns.
    page.locator("[data-field='name']").fill("ui-invalid")
    page.locator("[data-field='learning_rate']").fill("2")
    page.locator("[data-field='warmup_ratio']").fill("1.5")
    page.get_by_test_id("create-job").click()
    expect(form_item(page, "Learning rate").locator(".el-form-item__error")).to_contain_text("less than or equal to 1")
    expect(form_item(page, "Warmup ratio").locator(".el-form-item__error")).to_contain_text("less than 1")
    expect(name_error).to_have_count(0)

    # A rule across fields is named after the whole parameter set; it is shown at the batch size.
    page.locator("[data-field='learning_rate']").fill("1e-3")
    page.locator("[data-field='warmup_ratio']").fill("0")
    page.locator("[data-field='micro_batch_size']").fill("5")
    page.get_by_test_id("create-job").click()
    expect(form_item(page, "Batch size").locator(".el-form-item__error")).to_contain_text("must be a multiple of")
    expect(form_item(page, "Learning rate").locator(".el-form-item__error")).to_have_count(0)

    # GRPO brings its own fields; a reward's answer field the data lacks is named under that reward's input.
    page.get_by_text("GRPO", exact=True).click()
    expect(page.get_by_test_id("rewards")).to_be_visible()
    expect(page.locator("[data-field='rollout_n']")).to_have_value("8")
    expect(duration).to_have_count(0)  # the configurator sizes SFT and DPO lengths here, not rollouts
    page.locator("[data-field='dataset_paths'] .el-tag", has_text="demo-sft").locator(".el-tag__close").click()
    choose(page, "dataset_paths", "demo-grpo")
    page.locator("[data-field='rewards.0.answer_field']").fill("no_such_column")
    page.get_by_test_id("create-job").click()
    expect(form_item(page, "Answer field").locator(".el-form-item__error")).to_contain_text("no_such_column")
    assert page.url.endswith("/jobs/new")
    assert ui_server.api.get("/jobs").json() == []


def field_item(page: Page, field: str) -> Locator:
    """The form item that holds the input marked data-field=`field` (its error message, if any, is inside it)."""
    return page.locator(".el-form-item").filter(has=page.locator(f"[data-field='{field}']")).first


def test_one_submission_shows_every_problem_beside_its_field_in_chinese(page: Page, ui_server, console):
    """Four problems of a job, one a name that pydantic refuses before the rest is read, come back from one
    submission, each beside its field, in the interface's language and in words (no regex, no pydantic English); the
    first is scrolled into view, a long one takes room of its own, and a field's message goes once it is edited."""
    console.expect("status of 422")
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    page.goto(f"{ui_server.url}/jobs/new")
    page.locator("[data-field='name']").fill("has spaces")
    choose(page, "model_path", DEMO_MODEL)
    page.locator("[data-field='dataset_paths']").click()
    page.keyboard.type("dataset:no-such-data")
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    page.locator("[data-field='learning_rate']").fill("0")
    page.locator("[data-field='max_length']").fill("1")
    page.get_by_test_id("create-job").click()  # at the bottom of the form: the name is out of view

    errors = {
        field: field_item(page, field).locator(".el-form-item__error")
        for field in ("name", "dataset_paths", "learning_rate", "max_length")
    }
    expect(errors["name"]).to_have_text("只能使用字母、数字、“.”、“_”和“-”，并以字母或数字开头")
    expect(errors["dataset_paths"]).to_have_text("没有名为“no-such-data”的已登记数据集（数据集页面列出了全部）")
    expect(errors["learning_rate"]).to_have_text("须大于 0.0")
    expect(errors["max_length"]).to_contain_text("容纳不下套用对话模板的提示")
    expect(page.locator(".el-form-item__error")).to_have_count(4)
    expect(errors["name"]).to_be_in_viewport()
    # The long message lies inside its form item, which grows for it, not over the field below.
    item, message = field_item(page, "max_length").bounding_box(), errors["max_length"].bounding_box()
    assert message["y"] + message["height"] <= item["y"] + item["height"] + 1, (item, message)
    screenshot(page, "job-form-errors-zh")

    page.locator("[data-field='max_length']").fill("512")
    expect(errors["max_length"]).to_have_count(0)
    expect(page.locator(".el-form-item__error")).to_have_count(3)
    assert all(job["name"] != "has spaces" for job in ui_server.api.get("/jobs").json())


def test_what_this_server_cannot_run_is_shown_before_the_form_is_filled(page: Page, ui_server):
    """The browser tests' server runs without the RL environment (no PLATFORM_VERL_PYTHON, no vLLM beside the
    platform's verl): no engine here can run PPO, and the form says so with the engine's reason before anything is
    typed; GRPO, which TRL runs here, offers verl disabled."""
    assert "PLATFORM_VERL_PYTHON" not in ui_server.env
    engines = ui_server.api.get("/engines").json()
    reasons = {
        item["algorithm"]: item["message"]
        for engine in engines
        if engine["name"] == "verl"
        for item in engine["unavailable_here"]
    }
    assert not any("ppo" in engine["runnable_here"] for engine in engines) and "ppo" in reasons

    page.goto(f"{ui_server.url}/jobs/new")
    expect(page.locator("[data-field='algorithm'] [data-algorithm='ppo']")).to_have_class(re.compile("is-disabled"))
    expect(page.get_by_test_id("unavailable-algorithm")).to_have_text(
        f"PPO cannot run on this server: {reasons['ppo']}"
    )
    expect(page.locator("[data-field='algorithm'] [data-algorithm='grpo']")).not_to_have_class(
        re.compile("is-disabled")
    )

    page.get_by_text("GRPO", exact=True).click()
    expect(page.locator("[data-field='engine']")).to_contain_text("trl")
    page.locator("[data-field='engine']").click()
    verl = page.locator(".el-select-dropdown__item:visible", has_text="verl")
    expect(verl).to_have_class(re.compile("is-disabled"))
    expect(verl).to_have_attribute("title", reasons["grpo"])


@pytest.mark.slow
def test_a_demo_sft_job_created_in_the_form_trains_live_pauses_and_resumes(page: Page, ui_server, console):
    page.goto(f"{ui_server.url}/jobs")
    expect(page.get_by_text("No jobs yet")).to_be_visible()
    page.get_by_test_id("new-job").click()
    page.locator("[data-field='name']").fill("ui-sft")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    page.locator("[data-field='learning_rate']").fill("1e-3")
    page.locator("[data-field='batch_size']").fill("8")
    page.locator("[data-field='micro_batch_size']").fill("8")
    choose(page, "length_mode", "Steps")
    page.locator("[data-field='max_steps']").fill("600")
    page.locator("[data-field='save_interval']").fill("200")
    page.get_by_test_id("create-job").click()

    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    job_id = page.url.rsplit("/", 1)[1]
    job = ui_server.job(job_id)
    assert (job["name"], job["algorithm"], job["params"]["max_steps"], job["params"]["learning_rate"]) == (
        "ui-sft",
        "sft",
        600,
        1e-3,
    )
    expect(page.get_by_test_id("status")).to_have_text("Running", timeout=60_000)
    expect(page.get_by_test_id("live")).to_be_visible()

    # The loss chart gains points while the page stays as it is: they come over the WebSocket.
    wait_until(lambda: points(page, "Loss") >= 10, timeout=120, message="the first loss points")
    seen = points(page, "Loss")
    wait_until(lambda: points(page, "Loss") >= seen + 20, timeout=60, message="more loss points, live")
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload happened
    for title in ("Learning rate", "Gradient norm", "Throughput (tokens/s)", "Step time (s)"):
        expect(page.locator(f".metric-chart[data-chart='{title}']")).to_be_visible()

    page.locator("[data-action='pause']").click()
    expect(page.get_by_test_id("status")).to_have_text("Paused", timeout=60_000)
    expect(page.locator("[data-action='resume']")).to_be_visible()
    expect(page.locator("[data-action='pause']")).to_have_count(0)
    paused_at = ui_server.job(job_id)["progress"]["current_step"]
    assert 30 <= paused_at < 600
    wait_until(lambda: points(page, "Loss") >= paused_at, timeout=30, message="every step before the pause charted")
    expect(page.get_by_test_id("last-checkpoint")).to_have_text(str(paused_at))
    page.get_by_role("tab", name=re.compile("Checkpoints")).click()
    expect(page.get_by_test_id("checkpoints").get_by_text(f"checkpoint-{paused_at}", exact=True)).to_be_visible()

    elapsed = page.get_by_test_id("elapsed")
    paused_elapsed = float(elapsed.get_attribute("data-seconds"))
    assert paused_elapsed > 0
    page.locator("[data-action='resume']").click()
    expect(page.get_by_test_id("status")).to_have_text("Running", timeout=60_000)
    # Across the resume: elapsed goes on from the paused one, the last loss stays until the next step's.
    assert float(elapsed.get_attribute("data-seconds")) >= paused_elapsed
    expect(page.get_by_test_id("loss")).not_to_have_text("—")
    wait_until(lambda: points(page, "Loss") >= paused_at + 20, timeout=120, message="loss points after the resume")
    chart_steps = int(page.locator(".metric-chart[data-chart='Loss']").get_attribute("data-last-step"))
    assert chart_steps > paused_at
    # The README's picture: the running job's page from the top, charts and all.
    expect(page.get_by_test_id("loss")).not_to_have_text("—")
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.wait_for_timeout(500)
    screenshot(page, "job-detail-live")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("tab", name="Logs").click()
    expect(page.get_by_test_id("logs").locator(".line").filter(has_text=re.compile(r"\w")).first).to_be_visible()

    page.locator("[data-action='stop']").click()
    page.locator(".el-message-box").get_by_role("button", name="Stop").click()
    expect(page.get_by_test_id("status")).to_have_text("Cancelled", timeout=60_000)
    expect(page.locator("[data-action='stop']")).to_have_count(0)
    page.goto(f"{ui_server.url}/jobs")
    row = page.locator(".jobs-table .el-table__row", has_text="ui-sft")
    expect(row.get_by_test_id("status")).to_have_text("Cancelled")
    expect(row.locator("svg.spark polyline")).to_have_count(1)


def test_the_gpu_queue_shows_each_jobs_place_and_devices(anonymous_page: Page, tmp_path_factory, demo_assets):
    """A server told it has one GPU: the second of two jobs waits, and the list and the job page say so."""
    server = ServerProcess(home=tmp_path_factory.mktemp("ui_gpu_home"))
    server.env["PLATFORM_GPUS"] = "1"
    server.start()
    try:
        create_user(server, USER, PASSWORD, "member")
        sft = {"learning_rate": 1e-3, "batch_size": 2, "micro_batch_size": 2, "max_steps": 100_000}
        body = dict(
            algorithm="sft", model_path=str(demo_assets["model"]), dataset_paths=[str(demo_assets["sft"])], start=True
        )
        holder = server.create_job(name="holder", params=sft, **body)
        server.create_job(name="waiter", params=sft, **body)
        log_in(anonymous_page, server)
        rows = anonymous_page.locator(".jobs-table .el-table__row")
        expect(rows.filter(has_text="waiter").get_by_test_id("status")).to_have_text("Queued · position 1")
        expect(rows.filter(has_text="holder").get_by_test_id("gpus")).to_have_text("0")
        expect(rows.filter(has_text="waiter").get_by_test_id("gpus")).to_have_text("—")
        screenshot(anonymous_page, "jobs-gpu-queue")
        anonymous_page.goto(f"{server.url}/jobs/{holder['id']}")
        expect(anonymous_page.get_by_test_id("status")).to_have_text("Running")
        expect(anonymous_page.get_by_test_id("run-info").get_by_test_id("gpus")).to_have_text("0")
        screenshot(anonymous_page, "job-detail-gpus")
        # In Chinese, the waiting job's events read in Chinese: the server writes them in the interface's language.
        anonymous_page.evaluate("localStorage.setItem('tplat.locale', 'zh-CN')")
        anonymous_page.goto(f"{server.url}/jobs/waiter")
        anonymous_page.locator("#tab-events").click()
        events = anonymous_page.locator(".events")
        expect(events).to_contain_text("已创建 sft 任务，引擎 trl")
        expect(events).to_contain_text("由用户启动；排队中：等待 1 块 GPU，排第 1 位")
        screenshot(anonymous_page, "job-events-zh")
    finally:
        anonymous_page.goto("about:blank")  # a page left open would keep polling the server stopped next
        server.shutdown()


def write_run(path, steps: int) -> None:
    """A long recorded run: a smooth loss with one NaN step (flagged as an anomaly) and a key of its own."""
    with open(path, "w", encoding="utf-8") as handle:
        for step in range(1, steps + 1):
            loss = math.nan if step == 777 else 2 + math.sin(step / 900)
            record = {
                "step": step,
                "timestamp": 1_700_000_000 + step,
                "loss": {"total_loss": loss},
                "custom": {"my_metric": step % 97},
            }
            if step == 777:
                record["anomaly"] = {"type": "non_finite_loss", "message": "loss is nan at step 777"}
            handle.write(json.dumps(record) + "\n")


def test_a_100k_step_run_zooms_into_full_detail_plays_back_and_charts_any_key(
    page: Page, ui_server: ServerProcess, tmp_path
):
    run = tmp_path / "long.jsonl"
    write_run(run, 100_000)
    result = ui_server.cli("metrics", "ingest", str(run), "--job", "long-run")
    assert result.returncode == 0, result.stderr
    page.goto(f"{ui_server.url}/jobs/long-run")

    # History arrives downsampled (the series has 100k points; a chart needs a few thousand), NaN flagged.
    wait_until(lambda: points(page, "Loss") > 0, timeout=30, message="the loss history")
    assert points(page, "Loss") <= 2000
    loss_chart = page.locator(".metric-chart[data-chart='Loss']")
    expect(loss_chart).to_have_attribute("data-last-step", "100000")
    expect(page.get_by_test_id("anomalies")).to_contain_text("loss is nan at step 777")
    assert int(loss_chart.get_attribute("data-marks")) >= 2  # the anomaly and the NaN point

    # Zooming in asks the API for the visible range in full detail.
    canvas = loss_chart.locator("canvas").first
    box = canvas.bounding_box()
    with page.expect_request(lambda r: "/metrics?" in r.url and "start_step=" in r.url) as detail:
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        for _ in range(12):
            page.mouse.wheel(0, -400)
            page.wait_for_timeout(30)
    assert "max_points=" in detail.value.url
    expect(page.get_by_text(re.compile(r"steps \d+ to \d+ in full detail"))).to_be_visible()

    # A key the standard charts do not show becomes a chart of its own.
    choose(page, "add_chart", "my_metric")
    expect(page.locator(".metric-chart[data-chart='my_metric']")).to_be_visible()
    wait_until(lambda: points(page, "my_metric") > 0, timeout=10, message="the added chart's points")

    # Playback of steps 50..80 at 10x: the recording is 1 s per step, so about 3 s.
    page.locator(".playback .el-input-number").nth(0).locator("input").fill("50")
    page.locator(".playback .el-input-number").nth(1).locator("input").fill("80")
    choose(page, "playback_speed", "10×")
    page.get_by_test_id("playback-start").click()
    expect(page.get_by_test_id("playback-progress")).to_contain_text("100%", timeout=30_000)
    assert points(page, "Loss") == 31
    page.get_by_test_id("playback-exit").click()
    wait_until(lambda: points(page, "Loss") > 31, timeout=10, message="the live series back")
    expect(page.get_by_text(re.compile(r"in full detail"))).to_have_count(0)


SOURCE = "clone-source"
PARAMS = {"learning_rate": 1e-3, "max_steps": 7, "batch_size": 4, "micro_batch_size": 2}
# Any Chinese character: the server wrote the message in the interface's language.
CHINESE = re.compile(r"[\u4e00-\u9fff]")


def test_a_job_is_cloned_through_its_edited_job_file_with_each_problem_beside_its_line(page: Page, ui_server, console):
    console.expect("status of 422")
    model = ui_server.api.get(f"/models/{DEMO_MODEL}").json()["path"]
    body = {"name": SOURCE, "algorithm": "sft", "model_path": model, "dataset_paths": ["dataset:demo-sft"]}
    response = ui_server.api.post("/jobs", json=body | {"params": PARAMS})
    assert response.status_code == 201, response.text
    source = response.json()
    job_file = ui_server.api.get(f"/jobs/{source['id']}/spec").json()["text"]
    jobs_before = [job["name"] for job in ui_server.api.get("/jobs").json()]  # the module's other tests' too

    page.goto(f"{ui_server.url}/jobs/{source['id']}")
    page.get_by_test_id("language").click()
    page.locator(".el-select-dropdown__item:visible", has_text="简体中文").click()
    page.get_by_test_id("clone-job").click()
    dialog = page.get_by_test_id("clone-dialog")
    expect(dialog.locator(".el-dialog__title")).to_have_text(f"克隆任务“{SOURCE}”")
    name = dialog.locator("[data-field='clone-name']")
    expect(name).to_have_value(f"{SOURCE}-copy")
    editor = dialog.locator("textarea")
    expect(editor).to_have_value(job_file)

    with page.expect_download() as download:
        dialog.get_by_test_id("download-job-file").click()
    assert download.value.suggested_filename == f"{SOURCE}.yaml"
    assert download.value.path().read_text() == job_file

    # A name the API refuses is listed by its field (it has no line in the file) ...
    name.fill("has spaces")
    dialog.get_by_test_id("clone-create").click()
    name_problem = dialog.locator("[data-testid='clone-problem'][data-field='name']")
    expect(name_problem.get_by_test_id("problem-where")).to_have_text("name")
    expect(name_problem.get_by_test_id("problem-message")).to_have_text(CHINESE)

    # ... a key no job has is marked at its line, beside the text and in the gutter.
    unknown_line = len(job_file.splitlines()) + 1
    name.fill("clone-renamed")
    editor.fill(job_file + "colour: blue\n")
    dialog.get_by_test_id("clone-create").click()
    key_problem = dialog.locator(f"[data-testid='clone-problem'][data-line='{unknown_line}']")
    expect(key_problem.get_by_test_id("problem-where")).to_have_text(f"第 {unknown_line} 行")
    expect(key_problem.get_by_test_id("problem-message")).to_have_text(CHINESE)
    expect(dialog.get_by_test_id("clone-problem")).to_have_count(1)
    expect(dialog.locator(f"[data-testid='yaml-line'][data-line='{unknown_line}']")).to_have_class(
        re.compile("problem")
    )
    assert [job["name"] for job in ui_server.api.get("/jobs").json()] == jobs_before  # nothing was created

    editor.fill(job_file)
    dialog.get_by_test_id("clone-create").click()
    page.wait_for_url(re.compile(r"/jobs/[0-9a-f]{32}$"))
    expect(page.get_by_test_id("job-name")).to_have_text("clone-renamed")
    clone = ui_server.job(page.url.rsplit("/", 1)[1])
    assert clone["id"] != source["id"] and clone["status"] == "pending"
    assert clone["params"] == ui_server.job(source["id"])["params"]
    assert clone["model_path"] == source["model_path"] and clone["dataset_paths"] == source["dataset_paths"]


def test_engine_settings_are_previewed_and_a_refused_one_is_named_beside_the_card(page: Page, ui_server, console):
    console.expect("status of 422")
    page.goto(f"{ui_server.url}/jobs/new")
    page.locator("[data-field='name']").fill("ui-engine-settings")
    choose(page, "model_path", DEMO_MODEL)
    choose(page, "dataset_paths", "demo-sft")
    settings = page.locator("[data-field='engine_settings']")
    settings.fill("adam_beta2: 0.95")

    # The preview shows TRL's arguments with the setting in them, and the command that would run them. TRL checks
    # the setting in a worker that imports it first: seconds alone, more beside other tests.
    page.get_by_test_id("preview-job").click()
    dialog = page.get_by_test_id("preview-dialog")
    expect(dialog.get_by_test_id("preview-engine")).to_have_text("trl", timeout=120_000)
    expect(dialog.get_by_test_id("preview-command")).to_contain_text("training_platform.engines.trl")
    expect(dialog.get_by_test_id("preview-configuration")).to_contain_text('"adam_beta2": 0.95')
    dialog.locator(".el-dialog__headerbtn").click()
    expect(dialog).to_be_hidden()

    # A setting the platform makes from the job's params is refused by its key, beside the card; nothing is created.
    settings.fill("adam_beta2: 0.95\nlearning_rate: 0.5")
    page.get_by_test_id("create-job").click()
    error = page.get_by_test_id("engine-settings").locator(".el-form-item__error")
    expect(error).to_contain_text("learning_rate: the platform sets it from the job's params")
    expect(page.get_by_test_id("form-errors")).to_have_count(0)
    assert page.url.endswith("/jobs/new")
    assert ui_server.api.get("/jobs/ui-engine-settings").status_code == 404
