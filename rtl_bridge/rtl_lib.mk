# rtl_lib.mk - read by make after a Verilator --Mdir's own makefile (make -f V<top>.mk -f
# rtl_lib.mk otpu_rtl_lib): builds the Verilated design and the Verilator runtime it needs into
# one archive, libotpu_rtl.a, and writes how to compile and link a program against it:
# compile.txt (C++ compiler and flags), cflags.txt (the include folders a C file needs for
# the DPI header), link.txt (libraries after the archive); @OBJ@ stands for the folder the
# library ends up in (it is built in a temporary one). rtl_bridge/rtl_build.cpp reads them to
# link the simulator in its last step.
otpu_rtl_lib: $(VM_PREFIX)__ALL.a $(VK_GLOBAL_OBJS)
	rm -f libotpu_rtl.a
	rm -rf lib.tmp && mkdir lib.tmp && cd lib.tmp && $(AR) -x ../$(VM_PREFIX)__ALL.a
	$(AR) -rcs libotpu_rtl.a lib.tmp/*.o $(VK_GLOBAL_OBJS)
	rm -rf lib.tmp
	echo '$(CXX) $(CXXFLAGS) $(subst -I. ,-I@OBJ@ ,$(CPPFLAGS)) $(OPT_FAST)' > compile.txt
	echo '-I@OBJ@ -I$(VERILATOR_ROOT)/include -I$(VERILATOR_ROOT)/include/vltstd' > cflags.txt
	echo '$(LDFLAGS) $(LDLIBS) $(SC_LIBS)' > link.txt
