"""Token counts without a tokenizer download: an estimate of about four characters per token.

It errs on the high side for Vietnamese and English prose, so a budget estimated here is not exceeded
by the model's own tokenizer by much. Retrieval and the tier report share this one function.
"""

import math


def count_tokens(text):
    return math.ceil(len(text) / 4) if text else 0
