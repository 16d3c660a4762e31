"""Print the lesson links of teaching.rst (``indefsvm.explorer.LESSONS``).

The playground page they open, ``_static/playground.html``, is written into the built site
by ``docs/conf.py`` at each build; run this from the repository root after a change to the
lessons (``python docs/make_playground.py``); ``tests/test_explorer_links.py`` checks that
teaching.rst holds today's links.
"""

from indefsvm.explorer import lesson_links

for i, (title, url, question) in enumerate(lesson_links("_static/playground.html"), 1):
    print(f"{i}. `{title} <{url}>`_ -- *{question}*\n")
