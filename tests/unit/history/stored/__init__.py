"""Games recorded by earlier code, and the recorder that made them."""
