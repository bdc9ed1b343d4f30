"""The load chart of docs/benchmarks.md: throughput and latency against offered load (PNG)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def draw_load_chart(figures: dict[str, Any], path: Path) -> None:
    """Draw achieved throughput and latency percentiles against offered load into `path`."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no display on servers and CI
    import matplotlib.pyplot as plt

    curve = figures["load_curve"]
    offered = [row["offered_per_s"] for row in curve]
    fig, (rate, latency) = plt.subplots(1, 2, figsize=(11, 4.2))
    rate.plot(offered, [row["achieved_per_s"] for row in curve], "o-", label="achieved")
    rate.plot(offered, offered, ":", color="grey", label="offered")
    for key, style, label in [
        ("e2e_per_s", "--", "sustained max (flood)"),
        ("naive_per_s", "-.", "naive: one RQ job per command"),
    ]:
        rate.axhline(figures[key], linestyle=style, color="black", linewidth=0.8, label=label)
    rate.set_xlabel("offered load (commands/s)")
    rate.set_ylabel("commands/s")
    rate.set_title("Throughput")
    rate.legend(fontsize=8)
    for share, marker in [("p50_ms", "o-"), ("p95_ms", "s-"), ("p99_ms", "^-")]:
        latency.plot(offered, [row[share] for row in curve], marker, label=share[:3])
    latency.axhline(50, linestyle=":", color="red", linewidth=0.8, label="p99 target (50 ms)")
    latency.set_yscale("log")
    latency.set_xlabel("offered load (commands/s)")
    latency.set_ylabel("submit → other seat's SSE (ms)")
    latency.set_title("Latency")
    latency.legend(fontsize=8)
    machine = figures.get("machine", {})
    fig.suptitle(
        f"Skald over HTTP: 1 API process, {figures['e2e_workers']} workers, "
        f"{machine.get('cpus', '?')} CPUs ({machine.get('cpu', '?')})",
        fontsize=10,
    )
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
