"""Drawing (matplotlib, imported only here): R-shaped pictures and iml's panels."""
