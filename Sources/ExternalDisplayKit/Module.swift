// Placeholder so the module exists; replaced as the module is written.
