"""Screening: what a text may not become, whatever the policy (SPEC §3).

- ``secrets``: passwords, keys, tokens, card and account numbers, OTPs: refused, or redacted in messages;
- ``venting``: a passing mood with nothing lasting in it: refused from agents unless the user asked;
- ``poisoning``: tool output and instruction-like text: never approved without the owner.

Each answers about a text alone; the write path (``memories.lifecycle``) decides what follows.
"""
