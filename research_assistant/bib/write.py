"""Papers back to BibTeX: the one writer (the merged library.bib and the export of cited works)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from research_assistant.bib.fields import VERBATIM_FIELDS
from research_assistant.bib.names import encode_latex, format_file_field, format_names
from research_assistant.models import Paper

__all__ = ["LOCAL_FIELDS", "to_bibtex"]

_FIELD_NAME = re.compile(r"[A-Za-z_][\w:.+-]*")
_NOT_WRITTEN = frozenset({"title", "year", "crossref", "file"})
# Fields that point into someone's own disk or reference manager: kept in the library's merged
# library.bib, left out of anything exported for other people.
LOCAL_FIELDS = frozenset(
    {"file", "pdf", "localfile", "local-url", "bdsk-file-1", "bdsk-file-2", "mendeley-groups"}
)


def to_bibtex(papers: Iterable[Paper], *, local: bool = True) -> str:
    """Papers as BibTeX entries that ``parse_bibtex`` reads back to the same key, title, authors
    and year. Crossref'd fields were inherited when parsed, so each entry stands alone.
    ``local=False`` leaves out file paths and other fields that only mean something here."""
    out = []
    for paper in papers:
        fields = dict(paper.fields)
        # an entry built from a PDF (inferred metadata) keeps its identifiers outside fields
        fields.update(
            {k: v for k, v in (("doi", paper.doi), ("url", paper.url)) if v and k not in fields}
        )
        entry_type = re.sub(r"\W", "", paper.entry_type) or "misc"
        lines = []
        # the names of an editor-only entry were read from its editor field
        role = "editor" if "author" not in fields and "editor" in fields else "author"
        if paper.authors:
            lines.append((role, format_names(paper.authors, paper.others)))
        fields.pop(role, None)  # written from paper.authors, or held no name at all
        if paper.title:
            lines.append(("title", "{" + encode_latex(paper.title) + "}"))  # keep the case
        if paper.year is not None:
            lines.append(("year", str(paper.year)))
        elif fields.get("year"):
            lines.append(("year", encode_latex(fields["year"])))
        for name, value in sorted(fields.items()):
            if name in _NOT_WRITTEN or not value or not _FIELD_NAME.fullmatch(name):
                continue
            if not local and name.lower() in LOCAL_FIELDS:
                continue
            lines.append((name, value if name in VERBATIM_FIELDS else encode_latex(value)))
        if paper.files and local:
            lines.append(("file", format_file_field(paper.files)))
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in lines)
        out.append(f"@{entry_type}{{{paper.key},\n{body}\n}}\n")
    return "\n".join(out)
