"""BoTorch as the arena's second library peer, at its documented defaults (optional: ``requirements-botorch.txt``).

BoTorch's getting-started recipe, the loop a user of the library writes: a ``SingleTaskGP`` on the observations (its
default Matérn-5/2 ARD kernel with priors on the lengthscales and the noise, fitted by ``fit_gpytorch_mll``), inputs
normalized to the unit cube and outputs standardized by the model's transforms, the noisy log expected improvement
``qLogNoisyExpectedImprovement`` (the acquisition BoTorch and Ax recommend by default; it needs no incumbent value and
reads noise-free data as noise-free), maximized by ``optimize_acqf`` with q = 1, 10 restarts from 512 raw samples (the
tutorials' values), every evaluation one query, from the arena's shared initial design.

Every run computes in double precision on one thread, from a torch seed drawn from the run's own stream, so that its
numbers are repeatable on one machine; torch's kernels are not the project's BLAS, so the regeneration check reads
BoTorch's runs from the cache, like scikit-optimize's.
"""
import numpy as np

#: optimize_acqf's search at search_scale 1 (BoTorch's tutorials): restarts of L-BFGS-B from the best raw samples.
BOTORCH_SEARCH = dict(num_restarts=10, raw_samples=512)


def botorch_available():
    """Whether BoTorch (``requirements-botorch.txt``) is installed."""
    try:
        import botorch  # noqa: F401
    except ImportError:
        return False
    return True


def run_botorch(problem, X0, y0, budget, n_rounds, noise_rng, torch_seed, search_scale=1.0, evaluated=None):
    """BoTorch's loop from the shared initial design (``X0``, ``y0``, in the problem's coordinates), maximizing the
    observed values, ``n_rounds`` queries at most; ``evaluated()``, where given, is called as each query is observed.

    Returns
    -------
    X : (n, d) array, the queries, the initial design first
    y : (n,) array, their observed values
    rounds : (n,) int array, 0 for the initial design, then 1, 2, ...
    """
    import warnings

    import torch
    from botorch.acquisition.logei import qLogNoisyExpectedImprovement
    from botorch.fit import fit_gpytorch_mll
    from botorch.models import SingleTaskGP
    from botorch.models.transforms import Normalize, Standardize
    from botorch.optim import optimize_acqf
    from gpytorch.mlls import ExactMarginalLogLikelihood

    torch.set_num_threads(1)
    torch.manual_seed(int(torch_seed))
    search = {name: max(1, round(value * search_scale)) for name, value in BOTORCH_SEARCH.items()}
    bounds = torch.tensor(np.asarray(problem.bounds, dtype=float).T, dtype=torch.double)
    X, y = np.asarray(X0, dtype=float), np.asarray(y0, dtype=float)
    for _ in range(min(n_rounds, budget - len(X0))):
        train_X = torch.tensor(X, dtype=torch.double)
        train_Y = torch.tensor(y, dtype=torch.double)[:, None]
        model = SingleTaskGP(train_X, train_Y, input_transform=Normalize(d=problem.dim, bounds=bounds),
                             outcome_transform=Standardize(m=1))
        with warnings.catch_warnings():  # e.g. BoTorch's note that an optimizer stopped at its iteration limit
            warnings.simplefilter("ignore")
            fit_gpytorch_mll(ExactMarginalLogLikelihood(model.likelihood, model))
            acquisition = qLogNoisyExpectedImprovement(model, X_baseline=train_X, prune_baseline=True)
            candidate, _ = optimize_acqf(acquisition, bounds=bounds, q=1, **search)
        x = np.clip(candidate.detach().numpy().astype(float), problem.bounds[:, 0], problem.bounds[:, 1])
        X, y = np.vstack([X, x]), np.concatenate([y, problem.observe(x, noise_rng)])
        if evaluated is not None:
            evaluated()
    rounds = np.concatenate([np.zeros(len(X0), int), np.arange(1, len(X) - len(X0) + 1)])
    return X, y, rounds
