#pragma once
// A results folder's CSV in one include, for code that both writes and reads it: the format
// (results/csv_format.h), the columns (results/csv_schema.h), writing (results/results_writer.h)
// and reading (results/results_reader.h). Prefer the one header a file needs.
#include "results/csv_format.h"
#include "results/csv_schema.h"
#include "results/results_reader.h"
#include "results/results_writer.h"
