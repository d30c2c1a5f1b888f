function authors_add_gp_ucb_run(authorsDir, method, settings, seed, numIters, outFile)
% One run of the authors' Add-GP-UCB (github.com/kirthevasank/add-gp-bandits, their code unmodified, called the
% way their figure script demo/demoCustomise.m calls it) on their additive test function with D = 10 and
% groups of 3 (the paper's (10,3,3)). Writes to outFile, one number per line: the optimum, the function's coordinate
% permutation (10 numbers), then per query its 10 coordinates and its value (11 numbers).
%
%   method   'Add-*'  : the true decomposition (decompStrategy 'known', as boKDParams in the figure script)
%            'GP-UCB' : one group of all 10 coordinates (preprocessDecomposition with d = D, as the script)
%   settings 'library': noise and sigma range from std(y_init), their library's defaults (boProcessParams.m),
%                       the project's "authors" settings
%            'figure' : both from the std of f over 1,000 extra uniform points, as the figure script sets them
  pkg load statistics;  % mvnpdf, which their get3ModalFunction calls (in MATLAB's toolbox, Octave's package)
  addpath(fullfile(authorsDir, 'addGPLibkky'));
  addpath(fullfile(authorsDir, 'BOLibkky'));
  addpath(fullfile(authorsDir, 'utils'));
  warning('off', 'all');
  rand('state', seed);
  randn('state', seed);

  numDims = 10;
  [func, props] = getAdditiveFunction(numDims, 3);
  stdFth = std(func(rand(1000, numDims)));  % drawn in both settings so that both runs see the same stream

  params.optPtStdThreshold = 0.002;
  params.numInitPts = 10;
  params.utilityFunc = 'UCB';
  params.meanFuncs = [];
  params.commonMeanFunc = @(arg) zeros(size(arg, 1), 1);
  params.useSamePr = true;
  params.useSameSm = true;
  params.fixPr = false;
  params.fixSm = false;
  params.alBWLB = 1e-5;
  params.alBWUB = 5;
  if strcmp(settings, 'figure')
    params.commonNoise = 0.01 * stdFth;
    params.sigmaPrRange = [0.03 30] * stdFth;
  elseif ~strcmp(settings, 'library')
    error('settings must be ''library'' or ''figure'', got ''%s''', settings);
  end

  if strcmp(method, 'Add-*')
    params.decompStrategy = 'known';
    params.noises = zeros(numel(props.decomposition), 1);
    decomp = props.decomposition;
  elseif strcmp(method, 'GP-UCB')
    params.decompStrategy = 'partialLearn';
    [decomp, params] = preprocessDecomposition(numDims, numDims, params, true);
  else
    error('method must be ''Add-*'' or ''GP-UCB'', got ''%s''', method);
  end

  [~, ~, queries, values] = addGPBO(func, decomp, props.bounds, numIters, params);
  out = fopen(outFile, 'w');
  fprintf(out, '%.17g\n', props.maxVal);
  fprintf(out, '%.17g\n', props.permuteOrder);
  fprintf(out, '%.17g\n', [queries, values]');
  fclose(out);
end
