"""Graph -> Graph passes, one per file, named verb_noun; pipeline.py lists their order."""
