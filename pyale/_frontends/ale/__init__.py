"""``pyale.ale`` (:mod:`.api`) and ``pyale.model_bootstrap`` (:mod:`.model_bootstrap`)."""
