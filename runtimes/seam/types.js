/** The contract between the tool layer and every code-runtime backend. */
export {};
