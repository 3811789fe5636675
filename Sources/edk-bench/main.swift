print("edk-bench: not yet")
