"""The estimator core (layer 2): reading features, the grid, calling the model, the effects.

Works on a DataFrame, a prediction callable and plain arrays; front-ends
decide the conventions (ALEPlot's, iml's) through options.
"""
