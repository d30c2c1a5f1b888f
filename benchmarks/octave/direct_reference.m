function direct_reference(authorsDir, outFile)
% The points, best value and best point of the authors' diRect.m (add-gp-bandits, utils/diRect.m, through their
% diRectWrap.m, which maximizes) on a 3-D test function whose values are all negative, for several budgets given as
% opts.maxevals (the acquisition's call) and for opts.maxits = 8 with no maxevals (the likelihood's call).
% tests/test_optimizers.py checks direct_maximize's last_round against them; this writes tests/data/authors_direct.txt:
% per case a line "case <maxevals or 0> <maxits or 0> <n points> <best value> <best point>", then its points.
  addpath(fullfile(authorsDir, 'utils'));
  f = @(T) -((T(:,1)-0.3).^2 + 2*(T(:,2)+0.2).^2 + 0.5*(T(:,3)-0.6).^2) + 0.1*sin(5*T(:,1)) - 5;
  bounds = [-1 2; -3 1; 0 1];
  out = fopen(outFile, 'w');
  cases = [30 0; 37 0; 44 0; 58 0; 75 0; 100 0; 0 8];
  for k = 1:size(cases, 1)
    opts = struct();
    if cases(k, 1) > 0, opts.maxevals = cases(k, 1); end
    if cases(k, 2) > 0, opts.maxits = cases(k, 2); end
    [value, x, history, queries] = diRectWrap(f, bounds, opts);
    n = history(end, 2);
    fprintf(out, 'case %d %d %d %.17g %.17g %.17g %.17g\n', cases(k, 1), cases(k, 2), n, value, x);
    fprintf(out, '%.17g %.17g %.17g\n', queries(1:n, :)');
  end
  fclose(out);
end
