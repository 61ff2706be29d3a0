"""Pure: LaTeX source -> the plain text the checker reads, with each \\cite-family command as a
marker ("[key1, key2]") whose keys the manuscript's .bib resolves, and \\bibitem entries.

Not a TeX engine: comments dropped, the document body kept, sectioning turned into paragraphs,
math and display environments dropped, common text commands unwrapped, the rest of the control
words removed. Enough for the sentences around citations to read as prose.
"""

from __future__ import annotations

import re

from research_assistant.manuscript.model import KeyCite

__all__ = ["CITE_COMMAND", "bibitems", "latex_text"]

# natbib, biblatex and plain: \cite \citep \citet \citealp \citeauthor \parencite \textcite
# \autocite \footcite \supercite \smartcite \Cite... with optional [pre][post] notes and a star.
CITE_COMMAND = re.compile(
    r"\\(?!nocite)([Cc]ite[a-zA-Z]*|[Pp]arencite|[Tt]extcite|[Aa]utocite|[Ff]ootcite|"
    r"[Ss]upercite|[Ss]martcite|[Ff]ullcite)\*?(?:\s*\[[^\]]{0,200}\]){0,2}\s*\{([^{}]{0,2000})\}"
)
_COMMENT = re.compile(r"(?<!\\)%[^\n]*")
_SECTION = re.compile(
    r"\\(?:part|chapter|section|subsection|subsubsection|paragraph|title|caption)\*?"
    r"(?:\[[^\]]*\])?\{([^{}]*)\}"
)
_DROP_ENV = re.compile(
    r"\\begin\{(equation|align|gather|multline|eqnarray|displaymath|tikzpicture|tabular|verbatim|"
    r"lstlisting|math)(\*?)\}|\$\$|\\\["
)
_INLINE_MATH = re.compile(r"(?<!\\)\$([^$]{0,300})(?<!\\)\$")
_UNWRAP = re.compile(
    r"\\(?:emph|textbf|textit|textsc|texttt|textrm|textsf|mbox|text|underline|"
    r"enquote|hbox|uppercase|MakeUppercase)\*?\{([^{}]*)\}"
)
_DROP_ARG = re.compile(r"\\(?:label|ref|eqref|cref|Cref|autoref|pageref|url|href|includegraphics"
                       r"|bibliographystyle|vspace|hspace|nocite)\*?(?:\[[^\]]*\])?\{[^{}]*\}")  # fmt: skip
_ENV_EDGE = re.compile(r"\\(?:begin|end)\{[^{}]*\}(?:\[[^\]]*\])?")
_COMMAND = re.compile(r"\\[a-zA-Z]+\*?")
_PLACE = "\ue000"  # a private-use character stands for a citation until the text is final
_PLACEHOLDER = re.compile(_PLACE + r"(\d+)" + _PLACE)
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_THEBIB = re.compile(r"\\begin\{thebibliography\}.*?\\end\{thebibliography\}", re.S)


def _body(source: str) -> str:
    source = _COMMENT.sub("", source)
    begin = source.find("\\begin{document}")
    end = source.find("\\end{document}")
    if begin >= 0:
        source = source[begin + len("\\begin{document}") : end if end > begin else None]
    return source


def _drop_displays(text: str) -> str:
    """``text`` without display maths, tables and code environments. Linear: each opener's
    closer is searched for once, and a closer missing after one place is missing after any
    later one (a regex with ``.*?`` would rescan the rest of the text from every opener)."""
    out: list[str] = []
    pos = 0
    missing: set[str] = set()
    for m in _DROP_ENV.finditer(text):
        if m.start() < pos:
            continue
        if m.group(1):
            closer = f"\\end{{{m.group(1)}{m.group(2)}}}"
        else:
            closer = "$$" if m.group() == "$$" else "\\]"
        end = -1 if closer in missing else text.find(closer, m.end())
        if end < 0:
            missing.add(closer)
            continue
        out += [text[pos : m.start()], " "]
        pos = end + len(closer)
    out.append(text[pos:])
    return "".join(out)


def latex_text(source: str) -> tuple[str, tuple[KeyCite, ...]]:
    """(plain text, the key citations in it); the bibliography is not part of the text."""
    body = _body(source)
    bib = _THEBIB.search(body)
    cut = [
        m.start() for m in (bib, re.search(r"\\(?:bibliography|printbibliography)\b", body)) if m
    ]
    body = body[: min(cut)] if cut else body
    keys: list[tuple[str, ...]] = []

    def hold(m: re.Match[str]) -> str:
        keys.append(tuple(k.strip() for k in m.group(2).split(",") if k.strip()))
        return f"{_PLACE}{len(keys) - 1}{_PLACE}"

    text = CITE_COMMAND.sub(hold, body)
    text = _drop_displays(text)
    text = _SECTION.sub(lambda m: f"\n\n{m.group(1)}\n\n", text)
    text = _DROP_ARG.sub("", text)
    text = re.sub(r"\\footnote\{([^{}]*)\}", r" \1 ", text)  # a footnote reads as a sentence
    for _ in range(3):  # nested \emph{\textbf{x}}
        text = _UNWRAP.sub(r"\1", text)
    text = _INLINE_MATH.sub(r"\1", text)
    text = _ENV_EDGE.sub("\n\n", text)
    text = text.replace("\\\\", "\n").replace("~", " ").replace("\\&", "&").replace("\\%", "%")
    text = _COMMAND.sub("", text).replace("{", "").replace("}", "")
    text = re.sub(r"[ \t]+", " ", text)
    text = re.sub(r"\n[ \t]*(?:\n[ \t]*)+", "\n\n", text).strip()
    out: list[str] = []
    cites: list[KeyCite] = []
    pos = length = 0
    for m in _PLACEHOLDER.finditer(text):
        out.append(text[pos : m.start()])
        length += m.start() - pos
        ks = keys[int(m.group(1))]
        marker = "[" + ", ".join(ks) + "]"
        if out[-1][-1:].isalnum():  # "word\\cite{a}": a space before the marker
            out.append(" ")
            length += 1
        cites.append(KeyCite(length, length + len(marker), ks))
        out.append(marker)
        length += len(marker)
        pos = m.end()
    out.append(text[pos:])
    plain = "".join(out)
    return plain, tuple(cites)


def bibitems(source: str) -> list[tuple[str, str]]:
    """(key, text) of each \\bibitem of a thebibliography environment, in order."""
    m = _THEBIB.search(_body(source))
    if not m:
        return []
    env = m.group()
    items = list(_BIBITEM.finditer(env))
    out = []
    for i, item in enumerate(items):
        end = items[i + 1].start() if i + 1 < len(items) else env.rfind("\\end{thebibliography}")
        raw = env[item.end() : end]
        raw = _COMMAND.sub("", raw.replace("~", " ")).replace("{", "").replace("}", "")
        out.append((item.group(1).strip(), " ".join(raw.split())))
    return out
