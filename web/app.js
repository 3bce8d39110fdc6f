// playground
