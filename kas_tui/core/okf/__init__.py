"""The grammar of each file kind in a Knowledge-as-Skill package.

Pure functions: text in, objects out, and edits as minimal text patches.
Nothing here touches the file system or imports Textual.
"""
