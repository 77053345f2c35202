"""``authorag priors train`` and ``authorag priors eval``: build and evaluate the learned prior.

Example:
    authorag priors train --seed 0                 # rewrites authorag/data/learned_prior.npz
    authorag priors train --tail none --out /tmp/head_only.npz   # the head-only model
    authorag priors train --exclude majestic --out /tmp/lp.npz
    authorag priors eval                           # Markdown table (a few minutes: trains 3 models)
    authorag priors eval --json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from authorag.cli._util import JSON_VERSION, Subparsers


def add_parsers(psub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``train`` and ``eval`` to the ``authorag priors`` sub-commands."""
    t = psub.add_parser("train", help="train the learned prior (domain-name model) from the prior sources",
                        description="Train the learned prior (needs scikit-learn: pip install "
                                    "'authorag[bench]'); the same --seed gives the same weights.")
    t.add_argument("--seed", type=int, default=0, help="seed of the cross-validation folds (default 0)")
    t.add_argument("--out", metavar="FILE.npz",
                   help="artifact to write (default: the package's authorag/data/learned_prior.npz)")
    t.add_argument("--exclude", action="append", default=[], metavar="SOURCE",
                   help="leave an authority source out of training (repeatable)")
    t.add_argument("--source", action="append", metavar="SOURCE",
                   help="train only on these authority sources (repeatable; default: all default ones)")
    t.add_argument("--tail", default="ut1,cred1", metavar="SOURCES",
                   help="tail sources, comma-separated (ut1, cred1), or 'none' for a head-only model "
                        "(default: ut1,cred1)")
    t.add_argument("--json", action="store_true", help="print the training metadata as JSON")
    t.set_defaults(func=_train)

    e = psub.add_parser("eval", help="evaluate the learned prior (hash split; each model trained without the label's source)",
                        description="Train models on the train split, each without the source of the labels "
                                    "it is scored on (leave-source-out), and report "
                                    "Spearman/Kendall/list-of-10 rho on the web, news and CredAuth tracks.")
    e.add_argument("--seed", type=int, default=0, help="seed for training folds and list sampling")
    e.add_argument("--lists", type=int, default=1000, help="sampled lists per method (default 1000)")
    e.add_argument("--track", action="append", choices=["web", "news", "credauth"],
                   help="evaluate only these tracks (repeatable; default all)")
    e.add_argument("--json", action="store_true", help="print the report as JSON")
    e.set_defaults(func=_eval)


def _train(args: argparse.Namespace) -> int:
    from authorag.priors.learned.model import ARTIFACT, save_model
    from authorag.priors.learned.train import train_learned_prior

    out = Path(args.out) if args.out else Path(__file__).resolve().parents[1] / "data" / ARTIFACT
    tail = () if args.tail.strip() == "none" else tuple(p.strip() for p in args.tail.split(",") if p.strip())
    model = train_learned_prior(args.source, exclude=args.exclude, seed=args.seed, tail=tail)
    save_model(model, out)
    if args.json:
        print(json.dumps({"version": JSON_VERSION, "artifact": str(out), **model.meta}, indent=1))
    else:
        m = model.meta
        print(f"wrote {out} ({out.stat().st_size / 1024:.0f} KiB): {m['n_train']} domains from "
              f"{', '.join(m['sources'])} + tail {', '.join(m['tail_sources']) or 'none'}; alpha={m['alpha']}, CV Spearman {m['cv_spearman']}, "
              f"CV mean abs error {m['cv_mean_abs_error']}")
    return 0


def _eval(args: argparse.Namespace) -> int:
    from authorag.priors.learned.eval import evaluate, format_report

    tracks = tuple(args.track) if args.track else ("web", "news", "credauth")
    report = evaluate(seed=args.seed, n_lists=args.lists, tracks=tracks)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(format_report(report))
    return 0
