"""A typed, discoverable API: scheme classes with real keyword parameters,
generators that keep their signatures, dir(tbdse), a Gpu that prints its fields."""

from __future__ import annotations

import importlib.util
import inspect
import pickle
from pathlib import Path

import pytest

import tbdse as td

ROOT = Path(__file__).resolve().parents[1]


def _generator_script():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "make_scheme_classes", ROOT / "scripts" / "make_scheme_classes.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_checked_in_scheme_classes_are_what_the_script_writes() -> None:
    script = _generator_script()
    text = (ROOT / "python" / "tbdse" / "schemes" / "_classes.py").read_text(encoding="utf-8")
    assert text == script.formatted(script.render()), (
        "python/tbdse/schemes/_classes.py is stale: run scripts/make_scheme_classes.py"
    )


@pytest.mark.parametrize("name", td.schemes.names())
def test_every_scheme_has_a_class_whose_signature_is_its_parameters(name: str) -> None:
    classes = [
        getattr(td.schemes, c)
        for c in td.schemes.__all__
        if isinstance(getattr(td.schemes, c), type) and getattr(td.schemes, c).scheme_name == name
    ]
    assert len(classes) == 1
    cls = classes[0]
    sig = inspect.signature(cls)
    params = td.schemes.info(name)["params"]
    assert list(sig.parameters) == ["label", *(p["name"] for p in params)]
    for p in params:
        par = sig.parameters[p["name"]]
        assert par.kind is inspect.Parameter.KEYWORD_ONLY
        assert par.default == p["default"]
        assert p["name"] in (cls.__doc__ or "")
    made = cls()
    assert made == td.Scheme(name)
    assert made.name == name


def test_class_keywords_are_the_schemes_parameters() -> None:
    w = td.schemes.Wireframe(policy="lvl", level_bound=3, node_buffer=64)
    assert w == td.Scheme("wireframe", node_buffer=64)
    assert w.params["node_buffer"] == 64 and w.params["level_bound"] == 3
    assert repr(w) == "Scheme('wireframe', node_buffer=64)"  # defaults are not repeated
    assert pickle.loads(pickle.dumps(w)) == w
    assert w.replace(level_bound=1).params["level_bound"] == 1
    labelled = td.schemes.Juggler(workers=4, label="J4")
    assert labelled.label() == "J4" and labelled.params["workers"] == 4


def test_a_positional_name_is_an_error_not_another_scheme() -> None:
    with pytest.raises(td.ConfigError, match="keywords"):
        td.schemes.Wireframe("cdp")  # type: ignore[misc]


def test_an_unknown_keyword_suggests_the_parameter() -> None:
    with pytest.raises(td.ConfigError, match="did you mean 'level_bound'"):
        td.schemes.Wireframe(levl_bound=3)  # type: ignore[call-arg]
    with pytest.raises(td.ConfigError, match="was replaced"):
        td.schemes.Prelaunch(overlap_launches=True)  # type: ignore[call-arg]
    with pytest.raises(td.ConfigError, match="must be"):
        td.schemes.Wireframe(level_bound="three")  # type: ignore[arg-type]


def test_scheme_by_name_still_works() -> None:
    assert td.Scheme("cdp") == td.schemes.Cdp()
    assert td.Scheme("wireframe", policy="lrr").params["policy"] == "lrr"
    with pytest.raises(td.ConfigError, match="needs a name"):
        td.Scheme()


def test_generators_keep_their_signatures() -> None:
    for func in (td.workloads.wavefront, td.workloads.make):
        assert "kwargs" not in inspect.signature(func).parameters or func is td.workloads.make
    sig = inspect.signature(td.workloads.wavefront)
    assert list(sig.parameters)[:2] == ["rows", "cols"]
    assert {"name", "cost", "kernel", "kernels"} <= set(sig.parameters)
    # The function itself (what type checkers read) names the common keywords.
    assert {"name", "cost"} <= set(inspect.signature(td.workloads.wavefront.__wrapped__).parameters)
    for name, gen in td.workloads.GENERATORS.items():
        params = inspect.signature(gen.func).parameters
        assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()), name


def test_dir_lists_every_public_submodule() -> None:
    listed = dir(td)
    for module in (
        "cost",
        "examples",
        "executors",
        "experiment",
        "gpus",
        "plot",
        "results",
        "schema",
        "schemes",
        "space",
        "store",
        "workloads",
    ):
        assert module in listed
        assert inspect.ismodule(getattr(td, module))


def test_a_gpu_prints_its_fields() -> None:
    gpu = td.gpus.gtx480(sms=4)
    assert repr(gpu) == "Gpu('gtx480', sms=4)"
    text = str(gpu)
    for f in td.gpus.field_info():
        assert f["name"] in text
    assert "sms" in text.splitlines()[1] and " 4" in text.splitlines()[1]
    assert repr(td.gpus.custom("mine", sms=3)) == "Gpu('mine', sms=3)"


def test_an_auto_parameter_column_keeps_auto_and_the_resolved_value_has_its_own() -> None:
    wl = td.workloads.wavefront(8, 8, cost=1000)
    schemes = [td.schemes.Juggler(), td.schemes.Juggler(workers=4), td.schemes.Wireframe()]
    df = td.sweep(wl, "gtx480", schemes, grid={"sms": [4, 8]})
    juggler = df[df["scheme"] == "juggler"]
    assert sorted(set(juggler["workers"])) == ["4", "auto"]  # what was asked for
    auto = juggler[juggler["workers"] == "auto"]
    assert auto["workers_resolved"].tolist() == [32.0, 64.0]  # sms x tb_slots
    assert (juggler[juggler["workers"] == "4"]["workers_resolved"] == 4).all()
    wireframe = df[df["scheme"] == "wireframe"]
    assert (wireframe["node_buffer"] == "auto").all() and (wireframe["edge_buffer"] == "auto").all()
    assert "workers" in df.attrs["parameters"] and "workers_resolved" not in df.attrs["parameters"]
    assert td.results.metric_info()["workers_resolved"]["unit"] == "TBs"
    r = td.simulate(wl, "gtx480", td.schemes.Juggler())
    assert r.row["workers"] == "auto" and r.row["workers_resolved"] == r.stats["workers"] == 120
