"""The search documents: one per section of each chapter, loaded by the page only when the
reader opens search, and indexed there by MiniSearch (https://lucaong.github.io/minisearch/)."""
from __future__ import annotations

from builder.chapters import ParsedChapter
from builder.markdown.headings import heading_text
from builder.markdown.text import inline_text

SECTION_LEVELS = (2, 3)


def search_documents(chapters: list[ParsedChapter]) -> list[dict]:
    """[{id, url, title, chapter, text}]: a chapter's text before its first heading is one
    document titled by the chapter, then each `##`/`###` section is one."""
    documents = []
    for parsed in chapters:
        chapter = parsed.chapter
        name = f"{chapter.number}. {chapter.title}"
        section = {"url": chapter.url, "title": chapter.title, "chapter": name, "text": []}
        sections = [section]
        tokens = parsed.tokens
        for i, token in enumerate(tokens):
            if token.type == "heading_open" and int(token.tag[1]) in SECTION_LEVELS:
                section = {"url": f"{chapter.url}#{token.meta['id']}", "title": heading_text(tokens[i + 1])[0],
                           "chapter": name, "text": []}
                sections.append(section)
            elif token.type == "inline" and not (i and tokens[i - 1].type == "heading_open"):
                section["text"].append(inline_text(token.children))
            elif token.type == "figure":
                section["text"] += [token.meta["alt"], token.meta["caption"]]
            elif token.type == "diagram":
                section["text"] += [token.meta.get("alt", ""), inline_text(token.meta.get("caption"))]
            elif token.type == "sim":
                section["text"] += [inline_text(p) for p in token.meta.get("fallback", [])]
            elif token.type in ("fence", "code_block"):
                section["text"].append(token.content)
        for section in sections:
            text = " ".join(" ".join(section["text"]).split())
            if text or section is not sections[0]:
                documents.append({"id": len(documents), **section, "text": text})
    return documents
