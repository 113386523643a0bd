"""Boards as generic building blocks: cells in a graph, pieces on cells.

Importing this package registers every board kind with `engine.extensions`.
"""
