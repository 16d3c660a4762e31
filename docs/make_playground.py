"""Write docs/_static/playground.html and print the lesson links of teaching.rst.

Run from the repository root after a change to the explorer: ``python
docs/make_playground.py``; ``tests/test_explorer_links.py`` checks that both are today's.
"""

from pathlib import Path

from indefsvm.explorer import lesson_links, playground

here = Path(__file__).resolve().parent
playground().save(here / "_static" / "playground.html")
for i, (title, url, question) in enumerate(lesson_links("_static/playground.html"), 1):
    print(f"{i}. `{title} <{url}>`_ -- *{question}*\n")
