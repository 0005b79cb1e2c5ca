"""The regression gate (SPRT against a baseline bot). Imports tournament/ and below."""
