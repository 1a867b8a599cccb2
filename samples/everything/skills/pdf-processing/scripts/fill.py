import json
import sys

print(f"Would fill {sys.argv[1]} with {json.load(open(sys.argv[2]))}")
