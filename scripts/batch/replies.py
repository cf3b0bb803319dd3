#!/usr/bin/env python3
"""Writes N model replies as JSON Lines (each line a JSON string holding one raw reply), for
timing `llm-extract repair --jsonl --jobs N`. Deterministic: the same N gives the same file.

    python3 scripts/batch/replies.py 200000 > /tmp/replies.jsonl
    time llm-extract repair --jsonl --jobs 1 /tmp/replies.jsonl > /dev/null
"""
import json
import random
import sys


def order(rng, i):
    items = [
        {"sku": f"SKU-{rng.randrange(100000):05}", "qty": rng.randrange(1, 9),
         "price": round(rng.uniform(1, 500), 2), "gift": rng.random() < 0.2}
        for _ in range(rng.randrange(1, 6))
    ]
    return {"id": i, "customer": rng.choice(["Ada", "Grace", "Alan", "Edsger"]),
            "status": rng.choice(["pending", "paid", "shipped"]), "items": items,
            "notes": rng.choice([None, "leave at the door", "call first"])}


def reply(rng, i):
    doc = json.dumps(order(rng, i))
    kind = i % 6
    if kind == 0:
        return doc
    if kind == 1:
        return f"Sure! Here is the order:\n```json\n{json.dumps(order(rng, i), indent=2)}\n```\nAnything else?"
    if kind == 2:
        return "<think>The user wants the order.</think>" + doc.replace('"', "'").replace("true", "True")
    if kind == 3:
        return "The order is " + doc.replace("}", ",}") + " // as requested"
    if kind == 4:
        return doc[: len(doc) * 2 // 3]  # cut off mid-reply
    return "I could not find an order in that message, sorry."


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    rng = random.Random(11)
    out = sys.stdout
    for i in range(n):
        out.write(json.dumps(reply(rng, i)))
        out.write("\n")


if __name__ == "__main__":
    main()
