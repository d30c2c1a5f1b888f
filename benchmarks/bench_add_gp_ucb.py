"""Add-GP-UCB's two costs: the acquisition's M group searches, and the decomposition search of Algorithm 2.

Run from the repository root, on a quiet machine:

    python benchmarks/bench_add_gp_ucb.py    # about 2 minutes

One Add-GP-UCB step maximizes phi~^(j) = mu^(j) + beta^(1/2) sigma^(j) for each
of the M groups (Kandasamy et al. 2015, Algorithm 1), by DIRECT with the
paper's budget for Add-d/M, 0.9 min(5000, 100 D) evaluations in total, split
equally over the groups. Three ways, on the same additive GP (n = 100
observations of the additive trimodal function on [-1, 1]^D, its true groups,
squared-exponential kernel) and the same budgets:

* lockstep: ``direct_maximize_groups`` with one pooled posterior solve per round
  for the new points of every group (what ``AddGPUCB`` does);
* separate, batched: M calls of our ``direct_maximize``, each evaluating its
  round's points in one posterior call;
* separate, scipy: M calls of ``scipy.optimize.direct`` (locally_biased=False,
  eps = 1e-4), one posterior call per point.

Times are medians of 5 alternated repeats; the table also gives the evaluations
each side spent, summed over the groups (our DIRECT never passes a group's budget
and stops within 2d evaluations of it; scipy finishes the iteration in which it
passes ``maxfun``), and the total of the best values found (the three maximize the
same functions).

The second table times one relearning's decomposition scoring (Algorithm 2:
5 D random decompositions into groups of d, each scored by the marginal
likelihood at one (h, sigma)) two ways: the additive kernel built anew for each
decomposition (``AdditiveKernel(...)(X)``, as the code did before), against
``DecompositionLikelihood.scores``, which computes the per-coordinate factors
exp(-(x_k - x'_k)^2 / 2h^2) once and multiplies them per group; with the
largest difference of the scores.
"""
import time

import common  # noqa: F401  (sets one BLAS thread before numpy loads)
import numpy as np
from scipy.optimize import direct

from common.gp import GaussianProcess
from common.kernels import AdditiveKernel, SquaredExponential
from common.methods.add_gp_ucb import DecompositionLikelihood, GroupPosteriors, random_decomposition
from common.optimizers import direct_maximize, direct_maximize_groups
from common.test_functions import AdditiveTrimodal

CONFIGURATIONS = [(10, 3, 3), (24, 6, 4), (40, 5, 8), (120, 6, 20)]  # (D, d', M'): Add-* searches
N_OBSERVATIONS = 100
REPEATS = 5
SCORING = [(24, 6, 110), (24, 6, 410), (120, 6, 110), (120, 6, 410)]  # (D, d of Add-d/M, n observations)


def setting(dim, group_dim, n_groups, rng):
    problem = AdditiveTrimodal(dim, group_dim, rng=0, n_groups=n_groups)
    X = rng.uniform(problem.bounds[:, 0], problem.bounds[:, 1], (N_OBSERVATIONS, dim))
    kernel = AdditiveKernel(SquaredExponential(0.5), problem.groups)
    gp = GaussianProcess(kernel, 1e-4, y_transform="standardize").fit(X, problem(X))
    root = np.sqrt(0.2 * group_dim * np.log(2 * (N_OBSERVATIONS + 1)))
    boxes = [problem.bounds[group] for group in problem.groups]
    return GroupPosteriors(gp), root, boxes, -(-int(0.9 * min(5000, 100 * dim)) // len(boxes))


def lockstep(posteriors, root, boxes, budget):
    def ucbs(points):
        return [mean + root * std for mean, std in posteriors.predict(points)]
    results = direct_maximize_groups(ucbs, boxes, budget)
    return sum(result.fun for result in results), sum(result.nfev for result in results)


def one_group(posteriors, j, root, n_groups):
    def ucb(Z):
        points = [Z if k == j else np.empty((0, len(group))) for k, group in enumerate(posteriors.groups)]
        mean, std = posteriors.predict(points)[j]
        return mean + root * std
    return ucb


def separate_batched(posteriors, root, boxes, budget):
    results = [direct_maximize(one_group(posteriors, j, root, len(boxes)), box, budget)
               for j, box in enumerate(boxes)]
    return sum(result.fun for result in results), sum(result.nfev for result in results)


def separate_scipy(posteriors, root, boxes, budget):
    total, evaluations = 0.0, 0
    for j, box in enumerate(boxes):
        ucb = one_group(posteriors, j, root, len(boxes))
        result = direct(lambda z: -ucb(z[None, :])[0], box.tolist(), eps=1e-4, maxfun=budget, maxiter=100_000,
                        locally_biased=False, vol_tol=1e-16, len_tol=1e-6)
        total, evaluations = total - result.fun, evaluations + result.nfev
    return total, evaluations


def main():
    rng = np.random.default_rng(0)
    sides = {"lockstep": lockstep, "separate, batched": separate_batched, "separate, scipy": separate_scipy}
    print(f"Add-GP-UCB acquisition maximization, n = {N_OBSERVATIONS}, median of {REPEATS} alternated repeats\n")
    print("| D | d' | M | budget per group | " + " | ".join(f"{name} (s)" for name in sides)
          + " | scipy / lockstep | evaluations (sum over groups) | best values (sum over groups) |")
    print("|---" * (5 + len(sides) + 2) + "|")
    for dim, group_dim, n_groups in CONFIGURATIONS:
        posteriors, root, boxes, budget = setting(dim, group_dim, n_groups, rng)
        times, values, evaluations = {name: [] for name in sides}, {}, {}
        for _ in range(REPEATS):
            for name, side in sides.items():
                start = time.process_time()
                values[name], evaluations[name] = side(posteriors, root, boxes, budget)
                times[name].append(time.process_time() - start)
        medians = {name: float(np.median(t)) for name, t in times.items()}
        print(f"| {dim} | {group_dim} | {n_groups} | {budget} | "
              + " | ".join(f"{medians[name]:.3f}" for name in sides)
              + f" | {medians['separate, scipy'] / medians['lockstep']:.1f}x | "
              + ", ".join(str(evaluations[name]) for name in sides) + " | "
              + ", ".join(f"{values[name]:.4f}" for name in sides) + " |")

    print(f"\nDecomposition scoring, 5 D decompositions at one (h, sigma), median of {REPEATS} alternated repeats\n")
    print("| D | d | n | kernel per decomposition (s) | shared factors (s) | ratio | largest score difference |")
    print("|---" * 7 + "|")
    for dim, group_dim, n in SCORING:
        problem = AdditiveTrimodal(dim, 6, rng=0)
        X = rng.uniform(problem.bounds[:, 0], problem.bounds[:, 1], (n, dim))
        decompositions = [random_decomposition(dim, group_dim, rng) for _ in range(5 * dim)]
        times = {"each": [], "shared": []}
        for _ in range(REPEATS):
            likelihood = DecompositionLikelihood(X, problem(X), 1e-3)  # fresh: no cached distances
            start = time.process_time()
            each = np.array([likelihood._from_gram(AdditiveKernel(SquaredExponential(0.5, 1.0), groups)(X))
                             for groups in decompositions])
            times["each"].append(time.process_time() - start)
            likelihood = DecompositionLikelihood(X, problem(X), 1e-3)
            start = time.process_time()
            shared = likelihood.scores(decompositions, 0.5, 1.0)
            times["shared"].append(time.process_time() - start)
        each_s, shared_s = float(np.median(times["each"])), float(np.median(times["shared"]))
        print(f"| {dim} | {group_dim} | {n} | {each_s:.3f} | {shared_s:.3f} | {each_s / shared_s:.1f}x | "
              f"{np.max(np.abs(each - shared)):.2g} |")


if __name__ == "__main__":
    main()
