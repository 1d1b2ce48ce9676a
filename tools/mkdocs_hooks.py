"""MkDocs hooks for the documentation site (mkdocs.yml).

The pages under ``docs/`` are read on GitHub and by ``solve serve`` as well
as on the site, so they link to the repository's other files (a module, a
data file, an example) with relative paths such as
``../../src/solvers/game.py``. The site holds only ``docs/``: such a link
would lead nowhere there. This hook checks that the file exists in the
repository (a missing one is a warning, so ``mkdocs build --strict``
fails) and shows its path instead of a dead link, or links to it under
``repo_url`` when the configuration names a repository.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

log = logging.getLogger("mkdocs.hooks.repo_links")

# [text](target) and [text](target#anchor); images and URLs are left alone.
_LINK = re.compile(r"(?<!!)\[([^\]\n]*)\]\(([^)\s#]+)(#[^)\s]*)?\)")
_FENCE = re.compile(r"^(\s*)(```|~~~)")


def _rewrite(line: str, page_dir: Path, docs: Path, root: Path, repo_url: str | None,
             where: str) -> str:
    def one(m: re.Match[str]) -> str:
        text, target = m.group(1), m.group(2)
        if "://" in target or target.startswith(("mailto:", "/")):
            return m.group(0)
        path = (page_dir / target).resolve()
        if path == docs or docs in path.parents:
            return m.group(0)                       # a page of the site: MkDocs checks it
        if root not in path.parents and path != root:
            log.warning("%s: the link %r leaves the repository", where, target)
            return m.group(0)
        if not path.exists():
            log.warning("%s: the link %r names no file of the repository", where, target)
            return m.group(0)
        rel = path.relative_to(root).as_posix() + ("/" if path.is_dir() else "")
        if repo_url:
            kind = "tree" if path.is_dir() else "blob"
            return f"[{text}]({repo_url.rstrip('/')}/{kind}/main/{rel})"
        shown = text.strip("`")
        return text if shown.rstrip("/") == rel.rstrip("/") else f"{text} (`{rel}`)"

    return _LINK.sub(one, line)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Links to repository files outside ``docs/``: checked, then shown as paths."""
    docs = Path(config["docs_dir"]).resolve()
    root = Path(config["config_file_path"]).resolve().parent
    page_dir = (docs / page.file.src_path).parent
    out, fenced = [], False
    for number, line in enumerate(markdown.splitlines(keepends=True), start=1):
        if _FENCE.match(line):
            fenced = not fenced
        if not fenced:
            line = _rewrite(line, page_dir, docs, root, config.get("repo_url"),
                            f"{page.file.src_path}:{number}")
        out.append(line)
    return "".join(out)
