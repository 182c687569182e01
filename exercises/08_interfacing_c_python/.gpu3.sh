R=$PWD
cmake --build /tmp/b -j16 >/tmp/bl 2>&1 || tail -30 /tmp/bl
D=/tmp/b/exercises/08_interfacing_c_python
E=$R/exercises/08_interfacing_c_python
$D/check_08 --program $D/ex08_skeleton --library $D/libex08_skeleton.so --exercise-dir $E > $OUT/skeleton.txt 2>&1
$D/check_08 --program $D/ex08_solution --expect pass > $OUT/no_library.txt 2>&1; echo rc=$? >> $OUT/no_library.txt
python3 $E/veclib.py $D/libex08_solution.so > $OUT/python_demo.txt 2>&1
$D/ex08_solution > $OUT/run_solution.txt 2>&1
ctest --test-dir /tmp/b -E memcheck 2>&1 | tail -4 >> $OUT/python_demo.txt
for v in mutant_launches_for_n_zero mutant_nan_bound_accepted mutant_copies_back_one_too_many; do $D/check_08 --program $D/ex08_$v --library $D/libex08_$v.so --exercise-dir $E | grep -v "PASS " >> $OUT/mutants.txt 2>&1; done
