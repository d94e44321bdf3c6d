# An iml / ALEPlot workflow in R.  Its pyale twin is migration.py: same data, same
# model, same tables, every number printed as %.12g.
# Needs R with ALEPlot and iml.  Run: Rscript docs/examples/migration.R
library(ALEPlot)
library(iml)

aq <- na.omit(datasets::airquality)
rownames(aq) <- NULL
X <- aq[, c("Solar.R", "Wind", "Temp", "Month", "Day")]  # every column but the response
X$Month <- factor(X$Month, levels = 5:9, labels = c("May", "Jun", "Jul", "Aug", "Sep"))

# The model: a fixed formula, so that R and Python evaluate the same function.
month_effect <- c(May = 0, Jun = -8, Jul = 4, Aug = 6, Sep = -3)
month_slope <- c(May = 0, Jun = 0.2, Jul = 0.5, Aug = 0.4, Sep = -0.1)
ozone <- function(newdata) {
  month <- as.character(newdata$Month)
  solar <- newdata$Solar.R; wind <- newdata$Wind; temp <- newdata$Temp
  effect <- unname(month_effect[month]); slope <- unname(month_slope[month])
  -120 + 0.06 * solar - 3 * wind + 1.8 * temp + 0.02 * wind * temp + effect + slope * (temp - 3 * wind - 50)
}
# A classifier: probabilities of a low, mid or high ozone day.
ozone_class <- function(newdata) {
  score <- ozone(newdata)
  mid <- exp((score - 30) / 10)
  high <- exp((score - 70) / 10)
  total <- 1 + mid + high
  data.frame(low = 1 / total, mid = mid / total, high = high / total)
}

show <- function(title, table) {
  cat("== ", title, "\n", sep = "")
  cat(paste(names(table), collapse = ","), "\n", sep = "")
  cells <- lapply(table, function(column) {
    if (is.numeric(column)) sprintf("%.12g", column) else as.character(column)
  })
  cat(do.call(paste, c(cells, sep = ",")), sep = "\n")
}

# ALEPlot and PDPlot: J is a 1-based column number; the result is list(K, x.values, f.values)
pdf(NULL)  # ALEPlot always draws; send the pictures nowhere
pred.fun <- function(X.model, newdata) ozone(newdata)
ale_wind <- ALEPlot(X, NULL, pred.fun, J = 2, K = 10)
show("ALEPlot: Wind (numeric), K = 10", data.frame(Wind = ale_wind$x.values, ale = ale_wind$f.values))
ale_month <- ALEPlot(X, NULL, pred.fun, J = 4)
show("ALEPlot: Month (factor), levels in ALEPlot's order",
     data.frame(Month = ale_month$x.values, ale = ale_month$f.values))
pd_temp <- PDPlot(X, NULL, pred.fun, J = 3, K = 6)
show("PDPlot: Temp, K = 6", data.frame(Temp = pd_temp$x.values, pd = pd_temp$f.values))
invisible(dev.off())

# iml: Predictor, FeatureEffect, FeatureEffects; the results are data frames
predictor <- Predictor$new(data = X, predict.function = ozone)
show("FeatureEffect: ALE of Temp, grid size 8", FeatureEffect$new(predictor, "Temp", grid.size = 8)$results)
show("FeatureEffect: ALE of Month", FeatureEffect$new(predictor, "Month")$results)
show("FeatureEffect: PDP of Wind, grid size 5",
     FeatureEffect$new(predictor, "Wind", method = "pdp", grid.size = 5)$results)
show("FeatureEffect: ALE of Month x Temp, grid size 3",
     FeatureEffect$new(predictor, c("Month", "Temp"), grid.size = 3)$results)
effects <- FeatureEffects$new(predictor, features = c("Solar.R", "Wind"), grid.size = 4)
show("FeatureEffects: ALE, the table of Solar.R", effects$results[["Solar.R"]])

classifier <- Predictor$new(data = X, predict.function = ozone_class)
show("FeatureEffect: ALE of Temp for each class probability, grid size 4",
     FeatureEffect$new(classifier, "Temp", grid.size = 4)$results)
