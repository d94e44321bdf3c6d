"""What the public boundary reads: argument checks (:mod:`.checks`) and data frames (:mod:`.frames`)."""
