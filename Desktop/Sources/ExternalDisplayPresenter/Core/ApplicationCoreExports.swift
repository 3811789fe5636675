// The presenter's decisions that every mode shares — keys, the quit rule, the console's output, the backend — live
// in the application's pure core, `ExtDisplayCore`; everything that imports the presenter sees them as before.
@_exported import ExtDisplayCore
