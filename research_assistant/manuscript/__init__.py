"""Manuscripts: read a PDF, Word, LaTeX or Markdown manuscript, find its citations and its own
reference list, match the references to library papers; reviewing.check_manuscript checks them."""
